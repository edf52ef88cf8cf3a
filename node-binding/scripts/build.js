#!/usr/bin/env node
'use strict';
// `npm install` runs this: build the addon with node-gyp, offline, against
// the headers of the Node that runs it when they are installed beside it
// (Debian's /usr/include/node, or an official tarball's include/node).
// Inside the eventboost source tree, libeventboost is first copied from
// ../userlib and ../uapi into deps/, which `npm pack` ships.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const pkg = path.resolve(__dirname, '..');
const top = path.resolve(pkg, '..');

function vendor() {
  const lib = path.join(top, 'userlib', 'libeventboost.c');
  if (!fs.existsSync(lib)) return; // a packed tarball: deps/ is already there
  const copy = (from, to) => {
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.copyFileSync(from, to);
  };
  copy(lib, path.join(pkg, 'deps/libeventboost/libeventboost.c'));
  copy(path.join(top, 'userlib/eventboost.h'), path.join(pkg, 'deps/libeventboost/eventboost.h'));
  copy(path.join(top, 'uapi/linux/eventboost.h'), path.join(pkg, 'deps/uapi/linux/eventboost.h'));
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

function nodedirArgs() {
  if (process.env.npm_config_nodedir) return [`--nodedir=${process.env.npm_config_nodedir}`];
  const dir = path.resolve(path.dirname(process.execPath), '..');
  return fs.existsSync(path.join(dir, 'include', 'node', 'node.h')) ? [`--nodedir=${dir}`] : [];
}

vendor();
if (process.argv[2] === 'vendor') process.exit(0);
try {
  execFileSync(process.execPath, [nodeGyp(), 'rebuild', ...nodedirArgs()],
    { cwd: pkg, stdio: 'inherit' });
} catch (e) {
  console.error('eventboost: building the native addon failed (see above). It needs a C++ ' +
    'compiler, make, python3 and the Node headers (Debian: apt-get install build-essential ' +
    'python3 libnode-dev, or nodejs from a tarball that has include/node).');
  process.exit(1);
}
