'use strict';
// The run order's design (order.js), checked on the phases of config.json
// and on sizes around them: each row runs every policy once; over a whole
// design every policy runs in every position equally often and right after
// every other policy equally often; within a phase the reference runs in
// as many positions as it can, and no row repeats while others are left;
// the order is a function of its seed.
const assert = require('assert');
const { williams, repetitionOrder, sideOrder } = require('./order');
const config = require('./config.json');

let failed = 0;
function check(name, fn) {
  try {
    fn();
    console.log(`ok - ${name}`);
  } catch (e) {
    failed++;
    console.log(`not ok - ${name}: ${e.message}`);
  }
}

for (let n = 2; n <= 9; n++) {
  check(`williams(${n}): every position and every ordered pair equally often`, () => {
    const rows = williams(n);
    assert.strictEqual(rows.length, n % 2 ? 2 * n : n);
    const pos = Array.from({ length: n }, () => new Array(n).fill(0));
    const pair = new Map();
    for (const row of rows) {
      assert.deepStrictEqual([...row].sort((a, b) => a - b), [...Array(n).keys()], `row ${row} is no permutation`);
      row.forEach((x, i) => pos[x][i]++);
      for (let i = 1; i < n; i++) pair.set(`${row[i - 1]}>${row[i]}`, (pair.get(`${row[i - 1]}>${row[i]}`) || 0) + 1);
    }
    const each = rows.length / n;
    for (const p of pos) assert.ok(p.every((c) => c === each), `positions ${p}`);
    assert.strictEqual(pair.size, n * (n - 1), `${pair.size} ordered pairs of ${n * (n - 1)}`);
    assert.ok([...pair.values()].every((c) => c === rows.length / n), 'ordered pairs unequal');
  });
}

for (const [k, ph] of config.phases.entries()) {
  const services = (ph.services || config.services).length;
  const seed = 1000 * (k + 1);
  const n = ph.policies.length;
  const rows = williams(n).length;
  check(`${ph.name}: each service's reference runs in ${Math.min(n, ph.reps)} positions over its ${ph.reps} repetitions, ` +
    `all services' in ${Math.min(n, ph.reps * services)}`, () => {
    const all = new Set();
    const rowsSeen = new Set();
    for (let s = 0; s < services; s++) {
      const own = new Set();
      for (let rep = 0; rep < ph.reps; rep++) {
        const order = repetitionOrder(ph.policies, seed, s, ph.reps, rep);
        assert.deepStrictEqual([...order].sort(), [...ph.policies].sort());
        assert.deepStrictEqual(order, repetitionOrder(ph.policies, seed, s, ph.reps, rep), 'not reproducible');
        own.add(order.indexOf('fixed-2.6'));
        rowsSeen.add(order.join());
      }
      assert.strictEqual(own.size, Math.min(n, ph.reps), `service ${s}: positions ${[...own]}`);
      for (const x of own) all.add(x);
    }
    assert.strictEqual(all.size, Math.min(n, ph.reps * services), `positions ${[...all]}`);
    assert.strictEqual(rowsSeen.size, Math.min(rows, ph.reps * services), 'a row repeats while the design has others');
  });
}

// make demo's pairs (demo/driver.js): with any even number of pairs every
// two sides run in either order equally often (the open loop's three
// sides, the overload's two, and other counts DEMO_ARMS may set); the
// rotation it ran before 2026-12-04 ran the governor alone after "off" in
// 3 of 4 pairs.
for (let n = 2; n <= 6; n++) {
  const sides = ['off', 'gov', 'on', 'a', 'b', 'c'].slice(0, n);
  check(`sideOrder over ${n} side(s): every two sides in either order equally often over 2 to 12 pairs`, () => {
    for (let pairs = 2; pairs <= 12; pairs += 2) {
      const before = new Map();
      for (let k = 0; k < pairs; k++) {
        const order = sideOrder(sides, k);
        assert.deepStrictEqual([...order].sort(), [...sides].sort(), `pair ${k}: ${order}`);
        for (const a of sides) {
          for (const b of sides) if (order.indexOf(a) < order.indexOf(b)) before.set(`${a}<${b}`, (before.get(`${a}<${b}`) || 0) + 1);
        }
      }
      for (const a of sides) {
        for (const b of sides) {
          if (a !== b) assert.strictEqual(before.get(`${a}<${b}`), pairs / 2, `${pairs} pairs: ${a} before ${b} ${before.get(`${a}<${b}`) || 0} times`);
        }
      }
    }
  });
}
check('sideOrder over three sides: every side in every position over 6 pairs', () => {
  const sides = ['off', 'gov', 'on'];
  const at = new Map();
  for (let k = 0; k < 6; k++) sideOrder(sides, k).forEach((x, i) => at.set(`${x}@${i}`, (at.get(`${x}@${i}`) || 0) + 1));
  assert.ok(at.size === 9 && [...at.values()].every((c) => c === 2), JSON.stringify([...at]));
});
check('sideOrder: two sides alternate, off first, as the overload always ran', () => {
  assert.deepStrictEqual([0, 1, 2, 3].map((k) => sideOrder(['off', 'on'], k).join()), ['off,on', 'on,off', 'off,on', 'on,off']);
});

check('another seed, another assignment of policies to the design', () => {
  const p = config.phases[0].policies;
  assert.notDeepStrictEqual(repetitionOrder(p, 1000, 0, 2, 0), repetitionOrder(p, 2000, 0, 2, 0));
});

process.exit(failed ? 1 : 0);
