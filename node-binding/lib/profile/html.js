'use strict';
// The report as one self-contained HTML page: inline SVG and CSS, no script,
// no external asset.
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));

const COLORS = {
  io: '#9aa5b1', gc: '#d64545', cpu: '#f0a202',
  queue: '#f7d08a', 'queue-gc': '#ee9b9b', exec: '#f0a202', 'exec-gc': '#d64545', earlier: '#cfe3f5',
};
const LABELS = {
  io: 'I/O wait', queue: 'queued behind other execution', 'queue-gc': 'queued behind GC',
  exec: 'own execution', 'exec-gc': 'GC in own execution',
  earlier: 'earlier: summed while the request ran (its parts are in the breakdown)',
};

function legend(keys, labels) {
  return keys.map((k) => `<span class="key"><i style="background:${COLORS[k]}"></i>${esc(labels[k])}</span>`).join(' ');
}

// Tail vs typical (vs the rest): one 100% bar per group, split io/gc/cpu.
function breakdownSvg(r) {
  const groups = [['tail (≥ p99)', r.tail], ['rest (< p99)', r.rest], ['typical (< p50)', r.typical]];
  const W = 760, L = 130, BW = 480, H = 34;
  let y = 10;
  let body = '';
  for (const [name, g] of groups) {
    body += `<text x="0" y="${y + 20}" class="lbl">${esc(name)}</text>`;
    let x = L;
    for (const k of ['cpu', 'gc', 'io']) {
      const s = g.latencyMs > 0 ? g.breakdownMs[k] / g.latencyMs : 0;
      const w = Math.max(0, s * BW);
      if (w > 0) {
        body += `<rect x="${x.toFixed(1)}" y="${y}" width="${w.toFixed(1)}" height="28" fill="${COLORS[k]}"><title>${k}: ${g.breakdownMs[k]} ms (${(100 * s).toFixed(1)}%)</title></rect>`;
        if (w > 38) body += `<text x="${(x + w / 2).toFixed(1)}" y="${y + 19}" class="in">${(100 * s).toFixed(0)}%</text>`;
      }
      x += w;
    }
    body += `<text x="${L + BW + 10}" y="${y + 19}" class="lbl">${g.latencyMs} ms mean, n=${g.count}</text>`;
    y += H + 6;
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${y + 4}" role="img" aria-label="latency breakdown">${body}</svg>`;
}

// The slowest requests' critical paths, on a common time axis.
function pathsSvg(slowest) {
  if (!slowest.length) return '<p>No request finished.</p>';
  const W = 900, L = 250, TW = 560, H = 22;
  const max = slowest.reduce((m, s) => Math.max(m, s.latencyMs), 0) || 1;
  let y = 4;
  let body = '';
  for (const s of slowest) {
    body += `<text x="0" y="${y + 15}" class="lbl">${esc(s.request.slice(0, 34))}</text>`;
    for (const p of s.path) {
      const x = L + (p.startMs / max) * TW;
      const w = Math.max(0.5, ((p.endMs - p.startMs) / max) * TW);
      body += `<rect x="${x.toFixed(2)}" y="${y}" width="${w.toFixed(2)}" height="${H - 4}" fill="${COLORS[p.kind]}"><title>${esc(LABELS[p.kind])}: ${(p.endMs - p.startMs).toFixed(2)} ms at +${p.startMs} ms</title></rect>`;
    }
    body += `<text x="${L + TW + 8}" y="${y + 15}" class="lbl">${s.latencyMs} ms${s.aborted ? ' (aborted)' : ''}</text>`;
    y += H;
  }
  body += `<line x1="${L}" x2="${L + TW}" y1="${y + 2}" y2="${y + 2}" stroke="#555"/>` +
    `<text x="${L}" y="${y + 16}" class="lbl">0</text><text x="${L + TW}" y="${y + 16}" class="lbl" text-anchor="end">${max.toFixed(1)} ms</text>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${y + 22}" role="img" aria-label="slowest requests">${body}</svg>`;
}

function page(r) {
  const row = (name, g) => `<tr><td>${esc(name)}</td><td>${g.count}</td><td>${g.latencyMs}</td><td>${g.breakdownMs.io}</td>` +
    `<td>${g.breakdownMs.gc}</td><td>${g.breakdownMs.cpu}</td><td>${g.queueMs.gc}</td><td>${g.queueMs.cpu}</td><td>${g.ioMs.descheduled}</td></tr>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>eventboost profile: where the tail comes from</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;max-width:960px;margin:2em auto;padding:0 1em;color:#222}
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em}
.verdict{border-left:5px solid ${COLORS[r.verdict.cause === 'io' ? 'io' : r.verdict.cause === 'gc' ? 'gc' : 'cpu']};padding:.4em 1em;background:#f6f6f6}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}td:first-child{text-align:left}
svg .lbl{font:12px system-ui,sans-serif;fill:#222}svg .in{font:11px system-ui,sans-serif;fill:#111;text-anchor:middle}
.key{margin-right:1em;white-space:nowrap}.key i{display:inline-block;width:12px;height:12px;margin-right:4px;vertical-align:-1px}
</style></head><body>
<h1>Where the tail comes from</h1>
<p>${r.requests} requests profiled${r.sample < 1 ? ` (sampling ${r.sample} of ${r.seenRequests})` : ''} over ${r.durationS} s.
p50 ${r.latencyMs.p50} ms, p99 ${r.latencyMs.p99} ms, max ${r.latencyMs.max} ms (server side, source event to the response's finish)${r.abortedRequests ? `; ${r.abortedRequests} whose connection closed before the response ended, counted until then (${r.tail.aborted} of them in the tail)` : ''}${r.unfinishedRequests ? `; ${r.unfinishedRequests} still running at the report, not in these figures` : ''}.</p>
<div class="verdict"><p><b>Cause: ${esc(r.verdict.cause)}</b> · <b>boost: ${esc(r.verdict.boost)}</b></p><p>${esc(r.verdict.advice)}</p><p>${esc(r.framing)}</p></div>
<h2>Mean latency breakdown</h2>
<p>${legend(['cpu', 'gc', 'io'], { cpu: 'other execution (own callbacks and those waited behind)', gc: 'GC (own and waited behind)', io: 'I/O wait' })}</p>
${breakdownSvg(r)}
<table><tr><th>group</th><th>requests</th><th>latency ms</th><th>io ms</th><th>gc ms</th><th>cpu ms</th><th>queued behind GC</th><th>queued behind execution</th><th>of io: thread descheduled</th></tr>
${row('tail (≥ p99)', r.tail)}${row('rest (< p99)', r.rest)}${row('typical (< p50)', r.typical)}</table>
<h2>The slowest requests' critical paths</h2>
<p>${legend(['io', 'queue', 'queue-gc', 'exec', 'exec-gc', ...(r.slowest.some((s) => s.path.some((p) => p.kind === 'earlier')) ? ['earlier'] : [])], LABELS)}</p>
${pathsSvg(r.slowest)}
<p style="color:#666">Model: ${esc(r.model)}. I/O is time the request waited with nothing to run on its behalf (the loop blocked in poll, its event not yet ready, or the loop's thread descheduled by the OS -- the timelines draw that last part inside the queue and execution pieces); queue is time its event was ready while the loop ran other callbacks or GC.</p>
</body></html>
`;
}

module.exports = { page };
