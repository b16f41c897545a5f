// The package.json that `npm pack` (and `npm publish`) puts in the tarball, without `prepare`. npm runs a
// dependency's `prepare` only for a git or folder install, where it builds dist/, but npm 11 lists it for a tarball
// too, as an install script the application's allowScripts has not decided ("1 package has install scripts not yet
// covered"), while `npm install-scripts ls` then lists nothing to review (issue 47). The tarball holds dist/
// already, so its manifest has no use for the script. npm runs `strip` as `prepack`, after the build, and
// `restore` as `postpack`; a clone's own package.json keeps `prepare`, which `npm ci` and git installs need.
import { copyFileSync, existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";

const MANIFEST = "package.json";
/** The clone's own manifest while the tarball is made; git-ignored. */
const KEPT = ".package.json.packing";

const step = process.argv[2];
if (step === "strip") {
  // A pack that stopped between the two steps left the stripped manifest in place: the kept one first.
  if (existsSync(KEPT)) renameSync(KEPT, MANIFEST);
  const manifest = JSON.parse(readFileSync(MANIFEST, "utf8"));
  delete manifest.scripts.prepare;
  copyFileSync(MANIFEST, KEPT);
  writeFileSync(MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`);
} else if (step === "restore") {
  if (existsSync(KEPT)) renameSync(KEPT, MANIFEST);
} else {
  process.stderr.write("usage: node scripts/packed-manifest.mjs strip|restore\n");
  process.exit(2);
}
