#!/usr/bin/env node
import { runHealthCheck } from "./health-check.js";

// The image's HEALTHCHECK (`node /app/dist/cli/health-main.js`): health-check.ts says what it follows and why.
void runHealthCheck().then((status) => process.exit(status));
