// @ts-check
import { randomUUID } from "node:crypto";
import { appendFileSync } from "node:fs";

/**
 * The GitHub Actions runner's protocol, written by hand rather than taken from @actions/core, so that the action
 * runs from its checkout with nothing installed: inputs come in as INPUT_<NAME> variables, and outputs, variables
 * for later steps, the post step's state and the job summary go to the files the runner names in GITHUB_OUTPUT,
 * GITHUB_ENV, GITHUB_STATE and GITHUB_STEP_SUMMARY; logging commands are `::name::message` lines on stdout.
 */

/**
 * An input as the runner hands it over: `INPUT_` and the name upper-cased with spaces as underscores (a hyphen
 * stays: `freeze-clock` is INPUT_FREEZE-CLOCK, which only a process, not a shell, can read). Trimmed; "" if unset.
 * @param {string} name
 */
export function input(name) {
  return (process.env[`INPUT_${name.replace(/ /g, "_").toUpperCase()}`] ?? "").trim();
}

/**
 * `name<<delimiter`, the value, the delimiter: the form that holds any value, a multi-line one included. The
 * delimiter is random and checked, so no value can end the entry early and set another.
 * @param {string} variable the variable that names the file
 * @param {string} name
 * @param {string} value
 */
function appendEntry(variable, name, value) {
  const file = process.env[variable];
  if (!file) throw new Error(`${variable} is not set: run this as a step of a GitHub Actions job`);
  const delimiter = `ghadelimiter_${randomUUID()}`;
  if (name.includes(delimiter) || value.includes(delimiter))
    throw new Error(`${name}: its value holds the delimiter`);
  appendFileSync(file, `${name}<<${delimiter}\n${value}\n${delimiter}\n`);
}

/** A step output (`steps.<id>.outputs.<name>`). @param {string} name @param {string} value */
export const setOutput = (name, value) => appendEntry("GITHUB_OUTPUT", name, value);

/** A variable of the environment of every later step of the job. @param {string} name @param {string} value */
export const exportVariable = (name, value) => appendEntry("GITHUB_ENV", name, value);

/** Kept for this action's post step, which reads it back as STATE_<name>. @param {string} name @param {string} value */
export const saveState = (name, value) => appendEntry("GITHUB_STATE", name, value);

/** What main saved; "" if it saved nothing under that name. @param {string} name */
export const state = (name) => process.env[`STATE_${name}`] ?? "";

/** Markdown added to the job's summary page. @param {string} markdown */
export function appendSummary(markdown) {
  const file = process.env.GITHUB_STEP_SUMMARY;
  if (file) appendFileSync(file, markdown.endsWith("\n") ? markdown : `${markdown}\n`);
}

/** A command's data, escaped as the runner reads it back. @param {string} text */
const escaped = (text) => text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");

/** @param {string} command @param {string} message */
const command = (command, message) => process.stdout.write(`::${command}::${escaped(message)}\n`);

/** The runner replaces the value by *** wherever the log would show it. @param {string} secret */
export const mask = (secret) => command("add-mask", secret);
/** @param {string} message */
export const warning = (message) => command("warning", message);
/** An error annotation, and the step's exit status 1. @param {string} message */
export function fail(message) {
  command("error", message);
  process.exitCode = 1;
}
/** @param {string} message */
export const info = (message) => process.stdout.write(`${message}\n`);

/**
 * Lines of the log folded under a title.
 * @template T
 * @param {string} title
 * @param {() => T} work
 * @returns {T}
 */
export function group(title, work) {
  process.stdout.write(`::group::${escaped(title)}\n`);
  try {
    return work();
  } finally {
    process.stdout.write("::endgroup::\n");
  }
}
