// npm run breaking:proto (part of npm test): `buf breaking` of proto/ against the main branch,
// so that a wire-incompatible change (a deleted or renumbered field, a changed type, a removed
// RPC or package) fails the tests. The rules are buf.yaml's `breaking` section (FILE).
//
// What it compares against:
// - the main branch: the local `main`, else the remote-tracking `origin/main` (a clone of a
//   feature branch has only that); precisely, the commit where HEAD's history meets main's
//   (git merge-base), so a branch is judged by its own changes, not by what main gained since;
// - when that is HEAD itself (CI on main after a merge, or a branch without commits of its own),
//   HEAD's previous commit, so the change that landed is what is checked;
// - in a clone without a main branch (a single-branch clone of another branch), HEAD's previous
//   commit too, and it says so;
// - with nothing to compare against (not a git checkout, a first commit, a shallow clone of one
//   commit) it says so and skips.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const buf = path.join(root, "node_modules/.bin/buf");

function git(...args) {
  const r = spawnSync("git", args, { cwd: root, encoding: "utf8" });
  return r.status === 0 ? r.stdout.trim() : null;
}
const commit = (ref) => git("rev-parse", "--verify", "--quiet", `${ref}^{commit}`);
const short = (sha) => sha.slice(0, 12);

function skip(why) {
  console.log(`buf breaking: skipped, ${why}`);
  process.exit(0);
}

if (git("rev-parse", "--is-inside-work-tree") !== "true") skip("not a git checkout: no earlier protos to compare against");

const head = commit("HEAD");
const baseName = commit("refs/heads/main") !== null ? "main" : commit("refs/remotes/origin/main") !== null ? "origin/main" : null;
let against = baseName === null ? head : git("merge-base", "HEAD", baseName);
let label;
if (against !== null && against !== head) {
  label = against === commit(baseName) ? `${baseName} (${short(against)})` : `${short(against)}, where HEAD meets ${baseName}`;
} else {
  const parent = commit("HEAD~1");
  const why = baseName === null ? "this clone has no main branch" : against === null ? `HEAD and ${baseName} share no commit here` : `HEAD is on ${baseName}`;
  if (parent === null) skip(`${why} and HEAD (${short(head)}) has no previous commit in this clone`);
  against = parent;
  label = `HEAD~1 (${short(parent)}), as ${why}`;
}

// buf clones the repository itself (works in a worktree too, where .git is a file) and reads
// buf.yaml's module (proto/) at that commit.
const r = spawnSync(buf, ["breaking", "--against", `.git#ref=${against}`], { cwd: root, encoding: "utf8" });
process.stdout.write(r.stdout);
process.stderr.write(r.stderr);
if (r.status === 0) {
  console.log(`buf breaking: proto/ is wire-compatible with ${label}`);
} else {
  console.error(`buf breaking: proto/ is not wire-compatible with ${label} (exit ${r.status ?? r.signal}); see above`);
}
process.exit(r.status ?? 1);
