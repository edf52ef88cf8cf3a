// prototype: fixed work per request; /freq sets CPU 1's clock (userspace governor)
const http = require('node:http');
const fs = require('node:fs');
const CF = '/sys/devices/system/cpu/cpufreq/policy1';
function idle() {
  const t = fs.readFileSync('/dev/ebtest_cpufreq', 'utf8');
  const m = {}; for (const l of t.split('\n')) { const x = l.split(' '); if (x[0] === 'idle') m[x[1]] = Number(x[2]); }
  return m;
}
let last = null;
http.createServer((req, res) => {
  const u = new URL(req.url, 'http://x');
  if (u.pathname === '/freq') {
    fs.writeFileSync(CF + '/scaling_setspeed', u.searchParams.get('khz'));
    res.end(fs.readFileSync(CF + '/scaling_cur_freq', 'utf8'));
  } else if (u.pathname === '/idle') {
    const now = process.hrtime.bigint(); const i = idle();
    const out = last ? { wallMs: Number(now - last.now) / 1e6, cpu0IdleMs: (i[0] - last.i[0]) / 1e3, cpu1IdleMs: (i[1] - last.i[1]) / 1e3 } : {};
    last = { now, i }; res.end(JSON.stringify(out));
  } else {
    let x = 0; for (let i = 0; i < 2e6; i++) x += i % 7; res.end(String(x));
  }
}).listen(8100, '0.0.0.0', () => console.log('listening'));
