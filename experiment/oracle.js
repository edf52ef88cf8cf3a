'use strict';
// Adrenaline-style oracle (preload): boost the whole request for the URLs
// most likely to be tail requests (ORACLE_URLS, a regular expression),
// with no GC or queue hooks.  node -r ./oracle.js service.js
const http = require('node:http');
// The application's eventboost (this file is preloaded from elsewhere).
const eb = require(require.resolve('eventboost', { paths: [process.cwd()] }));

const tail = new RegExp(process.env.ORACLE_URLS || '^/(heavy|posts)$');
const r = eb.start({ gc: false, queue: false });
if (!r.active) process.stderr.write(`oracle: inactive: ${r.reason}\n`);
const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function (event, req, res) {
  if (event === 'request' && tail.test(req.url)) {
    eb.boostFor(200000);
    res.on('finish', () => eb.boostFor(0));
  }
  return emit.apply(this, arguments);
};
