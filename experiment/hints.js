'use strict';
// Did the hints a policy's server sent reach the kernel?  The server counts
// each hint it tried to send (control.js: the package's boosts, refused and
// errors); the kernel counts each vote cast and each ended (a GC exit, a
// queue's idle), but not one it refused (-EBUSY, the policy's budget or the
// client's share spent: the ioctl returns before eb_cpu_update() counts it).
// So kernel >= own - refused must hold.  It is a lower bound, not a match:
// the kernel's count is about 1.5-2 times the server's (casts and ends;
// 2026-12-05's 8-repetition run: 162 for 108, 925 for 461, 1 083 for 568),
// so lost hints fail it only when they are many.  Runs before 2026-12-05's
// evening record no refused count: the experiment lifts the budget
// (driver.js), so none was refused there.
//   seens: the runs' `seen` records (driver.js), summed.
function hintsReachedKernel(seens) {
  const sum = (k) => seens.reduce((a, x) => a + (x[k] || 0), 0);
  const own = sum('own'), refused = sum('refused'), kernel = sum('kernel'), edge = sum('edge');
  return { own, refused, kernel, edge, ok: kernel >= own - refused };
}

module.exports = { hintsReachedKernel };
