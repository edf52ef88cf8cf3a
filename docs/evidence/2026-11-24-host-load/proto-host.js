const http = require('node:http');
const agent = new http.Agent({ keepAlive: false });
const get = (p) => new Promise((res, rej) => { const t = process.hrtime.bigint(); http.get({ host: '127.0.0.1', port: 18100, path: p, agent }, (r) => { let d = ''; r.on('data', (c) => d += c); r.on('end', () => res({ ms: Number(process.hrtime.bigint() - t) / 1e6, body: d })); }).on('error', rej); });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
(async () => {
  for (let i = 0; i < 600; i++) { try { await get('/freq?khz=4000000'); break; } catch { await sleep(1000); } }
  console.log('up');
  for (let w = 0; w < 5; w++) await get('/');
  const res = {};
  for (let round = 0; round < 3; round++) {
    for (const khz of [4000000, 2600000, 1600000]) {
      await get('/freq?khz=' + khz); await sleep(50); await get('/idle');
      const l = []; for (let i = 0; i < 8; i++) l.push((await get('/')).ms);
      const id = JSON.parse((await get('/idle')).body);
      l.sort((a, b) => a - b); (res[khz] = res[khz] || []).push(l[4]);
      console.log(khz, 'median', l[4].toFixed(1), 'ms', JSON.stringify(id));
    }
  }
  for (const k of [2600000, 1600000]) console.log(k, 'ratio', (res[k].reduce((a, b) => a + b) / res[4000000].reduce((a, b) => a + b)).toFixed(3), '1/f', (4e6 / k).toFixed(3));
  require('fs').writeFileSync(__dirname + '/out/done', '');
})();
