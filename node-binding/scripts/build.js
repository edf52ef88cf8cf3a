#!/usr/bin/env node
'use strict';
// `npm install` runs this, and it never fails the install: eventboost is
// inert where it cannot act, and that includes a machine where it cannot be
// built.  The package ships a prebuild per tested Node ABI and architecture
// (prebuilds/linux-{x64,arm64}/node.abi<ABI>.node, made by scripts/prebuild.sh
// when the package is packed); where one fits there is nothing to do.
// Elsewhere on Linux the addon is built with node-gyp, offline, against the
// headers of the Node that runs it (Debian's /usr/include/node, or an official
// tarball's include/node); without a compiler or headers it says so and
// the install goes on.  `build.js vendor` only copies libeventboost from
// ../userlib and ../uapi into deps/ (inside the eventboost source tree).
const { execFileSync, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const pkg = path.resolve(__dirname, '..');
const top = path.resolve(pkg, '..');

// Inside the eventboost source tree (not an installed package).
const inSourceTree = fs.existsSync(path.join(top, 'userlib', 'libeventboost.c'));

function vendor() {
  const lib = path.join(top, 'userlib', 'libeventboost.c');
  if (!inSourceTree) return; // a packed tarball: deps/ is already there
  const copy = (from, to) => { // an unchanged copy keeps its time: prebuilds stay current
    const data = fs.readFileSync(from);
    if (fs.existsSync(to) && fs.readFileSync(to).equals(data)) return;
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.writeFileSync(to, data);
  };
  copy(lib, path.join(pkg, 'deps/libeventboost/libeventboost.c'));
  copy(path.join(top, 'userlib/eventboost.h'), path.join(pkg, 'deps/libeventboost/eventboost.h'));
  copy(path.join(top, 'uapi/linux/eventboost.h'), path.join(pkg, 'deps/uapi/linux/eventboost.h'));
  // The tarball's licence: the package's own, LGPL-2.1-or-later.
  copy(path.join(top, 'LICENSES/LGPL-2.1'), path.join(pkg, 'LICENSE'));
}

function nodeGyp() {
  if (process.env.npm_config_node_gyp) return process.env.npm_config_node_gyp;
  try {
    return require.resolve('node-gyp/bin/node-gyp.js');
  } catch {
    // npm ships node-gyp next to itself
    return path.join(path.dirname(process.execPath), '..', 'lib', 'node_modules',
      'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
  }
}

function nodeMajor(dir) {
  try {
    const h = fs.readFileSync(path.join(dir, 'include', 'node', 'node_version.h'), 'utf8');
    return Number(/#define NODE_MAJOR_VERSION (\d+)/.exec(h)[1]);
  } catch {
    return null;
  }
}

// Headers of this Node's major only: npm's nodedir setting may name another.
function nodedirArgs() {
  const major = Number(process.versions.node.split('.')[0]);
  for (const dir of [process.env.npm_config_nodedir, path.resolve(path.dirname(process.execPath), '..')]) {
    if (dir && nodeMajor(dir) === major) return [`--nodedir=${dir}`];
  }
  return [];
}

function prebuild() {
  return path.join(pkg, 'prebuilds', `${process.platform}-${process.arch}`,
    `node.abi${process.versions.modules}.node`);
}

// Why the prebuild for this Node does not load, or null if it does (in a
// child: a binary that cannot load must not take this script with it).  A
// prebuild needs the glibc it was built against (2.34): on an older one it
// is there and useless, and the addon is built from source as if it were not.
function prebuildFailure() {
  const r = spawnSync(process.execPath, ['-p', `require(${JSON.stringify(prebuild())}).abi`],
    { encoding: 'utf8' });
  if (r.status === 0 && r.stdout.trim() === process.versions.modules) return null;
  const lines = `${r.stderr || ''}`.split('\n').filter((l) => /Error|error:/.test(l));
  return (lines[0] || `exit status ${r.status}, ABI ${r.stdout.trim()}`).trim();
}

vendor();
if (process.argv[2] === 'vendor') process.exit(0);
// A developer's tree always builds its own sources.
let unusable = null;
if (!inSourceTree && fs.existsSync(prebuild())) {
  unusable = prebuildFailure();
  if (!unusable) process.exit(0);
  console.error(`eventboost: the prebuild ${path.relative(pkg, prebuild())} does not load here ` +
    `(${unusable}); building it from source.`);
}
if (process.platform !== 'linux') {
  console.error(`eventboost: ${process.platform} has no eventboost governor; the package installs inert.`);
  process.exit(0);
}
try {
  // node-gyp takes npm's npm_config_* variables over its command line: a
  // user's `nodedir=/usr` in .npmrc would build against another Node's
  // headers (and the addon would be refused at load).  Where the headers of
  // the Node that runs this were found, only --nodedir says which.
  const dirArgs = nodedirArgs();
  const env = { ...process.env };
  if (dirArgs.length) {
    for (const k of Object.keys(env)) {
      if (/^npm_(config_|package_config_node_gyp_)(nodedir|target|runtime|disturl|dist_url|devdir|arch)$/i.test(k)) delete env[k];
    }
  }
  execFileSync(process.execPath, [nodeGyp(), 'rebuild', ...dirArgs],
    { cwd: pkg, stdio: 'inherit', env });
} catch {
  if (inSourceTree) process.exit(1);
  fs.rmSync(path.join(pkg, 'build'), { recursive: true, force: true });
  console.error(`eventboost: ${unusable ? 'the prebuild for' : 'no prebuild fits'} ` +
    `Node ${process.versions.node} (ABI ` +
    `${process.versions.modules}, ${process.platform}-${process.arch})` +
    `${unusable ? ' does not load here' : ''} and building the ` +
    'native addon failed (see above); the install goes on and eventboost stays inert. To ' +
    "build it: a C++ compiler, make, python3 (Debian: apt-get install build-essential python3) " +
    "and this Node's headers (include/node beside its bin/, as nodejs.org's builds have them), " +
    "then 'npm rebuild eventboost'.");
}
