#!/usr/bin/env node
import { runCommand } from "./cli/run.js";

// The `loyalty-mock` bin and `npm start` (cli/run.ts).
runCommand(process.argv.slice(2));
