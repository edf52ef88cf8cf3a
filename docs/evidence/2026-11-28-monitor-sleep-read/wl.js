// A waiting loop: a request every 20 ms from a peer on CPU 0, 2 ms of work each.
const eb = require(process.env.PKG || '/work/main/node-binding');
const { execFileSync, spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const pin = (pid, cpu) => execFileSync('taskset', ['-a', '-p', '-c', String(cpu), String(pid)], { stdio: 'ignore' });
pin(process.pid, 1);
const s = eb.start({ gc: false, bursts: process.env.BURSTS || 'arrival' });
if (!s.active) throw new Error(s.reason);
const own = (ms) => { const t = process.cpuUsage(); for (;;) { const d = process.cpuUsage(t); if (d.user + d.system >= ms * 1000) return; } };
const mon = fs.readdirSync('/proc/self/task').find((t) => fs.readFileSync('/proc/self/task/' + t + '/comm', 'utf8').trim() === 'eventboost-mon');
const cpuOf = (tid) => { const f = fs.readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' '); return Number(f[0]); };
const server = net.createServer((c) => c.on('data', (d) => { own(2); c.write('k'); }));
server.listen(0, '127.0.0.1', () => {
  const port = server.address().port;
  const peer = spawn('taskset', ['-c', '0', process.execPath, '-e', `
    const c = require('net').connect(${port}, '127.0.0.1', () => { const t = setInterval(() => c.write('x'), 20); setTimeout(() => { clearInterval(t); c.end(); }, ${Number(process.env.SECS || 10) * 1000}); });
    c.on('data', () => {});`], { stdio: 'inherit' });
  let st;
  if (process.env.STRACE) st = spawn('strace', ['-c', '-p', mon, '-o', process.env.STRACE], { stdio: 'inherit' });
  setTimeout(() => {
    const m0 = cpuOf(mon), l0 = cpuOf(process.pid), q0 = eb.stats().queue;
    setTimeout(() => {
      const m1 = cpuOf(mon), l1 = cpuOf(process.pid), q1 = eb.stats().queue;
      const arr = q1.monitorArrivals - q0.monitorArrivals, wk = q1.monitorWakeups - q0.monitorWakeups;
      console.log(JSON.stringify({ pkg: process.env.PKG, bursts: s.bursts, monitorMs: (m1 - m0) / 1e6, loopMs: (l1 - l0) / 1e6, wakeups: wk, arrivals: arr, samples: q1.samples - q0.samples,
        usPerWakeup: (m1 - m0) / 1e3 / wk }));
      if (st) st.kill('SIGINT');
      setTimeout(() => process.exit(0), 1000);
    }, (Number(process.env.SECS || 10) - 3) * 1000);
  }, 2000);
});
