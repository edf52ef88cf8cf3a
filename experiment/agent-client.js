'use strict';
// The guest's side of load-agent.js, for make experiment's and make demo's
// drivers: the agent's address from the environment (HOST:PORT; the
// script that boots the guest starts the agent and sets it), and one run
// asked of it.
//   const agent = agentFrom('EXPERIMENT_AGENT', 'scripts/experiment.sh');
//   const r = await agent.post('/load', { ... });  // the agent's JSON answer
const http = require('node:http');

function agentFrom(name, starter) {
  const addr = process.env[name];
  if (!/^[\w.-]+:\d+$/.test(addr || '')) {
    throw new Error(`${name}: HOST:PORT of load-agent.js (${starter} starts it), not ${JSON.stringify(addr)}`);
  }
  const [host, port] = addr.split(':');
  function post(p, o) {
    const body = JSON.stringify(o);
    return new Promise((resolve, reject) => {
      // A connection of its own (agent: false): on a kept-alive one the
      // agent may close it, idle for its keepAliveTimeout (5 s), as the
      // next run's request goes out ("socket hang up", seen in make demo).
      const req = http.request({ host, port: Number(port), method: 'POST', path: p, agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
        let d = '';
        res.setEncoding('utf8');
        res.on('data', (c) => { d += c; });
        res.on('end', () => (res.statusCode === 200 ? resolve(JSON.parse(d))
          : reject(new Error(`load agent at ${addr}: ${res.statusCode} ${d.trim()}`))));
      });
      req.on('error', (e) => reject(new Error(`load agent at ${addr}: ${e.message} (is the guest's network up? scripts/guest-net.sh)`)));
      req.end(body);
    });
  }
  return { addr, post };
}

module.exports = { agentFrom };
