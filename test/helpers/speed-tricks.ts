import { SPEED_TRICKS, type SpeedTricks } from "../../src/http/fast/index.js";

/** Every speed trick switched off: the ordinary Express path throughout. */
export const NO_TRICKS: SpeedTricks = Object.fromEntries(SPEED_TRICKS.map((trick) => [trick, false]));

/** The servers a test of the tricks runs against: all tricks, each one switched off alone, and none. */
export const SPEED_TRICK_VARIANTS: [name: string, tricks: SpeedTricks][] = [
  ["every trick", {}],
  ...SPEED_TRICKS.map((trick): [string, SpeedTricks] => [`${trick} off`, { [trick]: false }]),
  ["no trick", NO_TRICKS],
];
