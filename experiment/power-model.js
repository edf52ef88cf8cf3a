'use strict';
// The power model make experiment's energy figures come from (analyze.js),
// in one place for every script that recomputes them.

// Dynamic power P = C * f * V(f)^2 with the published data of a real core:
// the Cortex-A76 cores of the Rockchip RK3588 as Linux describes them
// (arch/arm64/boot/dts/rockchip/rk3588-base.dtsi: dynamic-power-coefficient
// 416 uW/MHz/V^2; rk3588-opp.dtsi: OPPs 1.2-2.4 GHz at 0.675-1.0 V).  Our
// emulated range 0.8-4.0 GHz maps onto that part's by f / f_max, so the
// emulated 4.0 GHz is the A76 at 2.4 GHz, 1.0 V; below the lowest OPP the
// voltage stays at its floor (0.675 V).  Static (leakage) power while busy:
// 10% of peak dynamic power, scaled with V; idle cores are power-gated and
// cost nothing.  Energy = sum over frequencies of busy time x P(f).
const COEFF_UW_PER_MHZ_V2 = 416;
const OPP = [[1200, 0.675], [1416, 0.725], [1608, 0.7625], [1800, 0.85], [2016, 0.925], [2208, 0.9875], [2400, 1.0]];
const EMU_MAX_KHZ = 4000000;
const LEAK_SHARE = 0.10;

function volts(mhz) {
  if (mhz <= OPP[0][0]) return OPP[0][1];
  for (let i = 1; i < OPP.length; i++) {
    const [f1, v1] = OPP[i];
    const [f0, v0] = OPP[i - 1];
    if (mhz <= f1) return v0 + (v1 - v0) * (mhz - f0) / (f1 - f0);
  }
  return OPP[OPP.length - 1][1];
}
function powerMw(khz) {
  const mhz = (khz / EMU_MAX_KHZ) * OPP[OPP.length - 1][0];
  const v = volts(mhz);
  const peak = COEFF_UW_PER_MHZ_V2 * OPP[OPP.length - 1][0] * 1.0 / 1000;
  return COEFF_UW_PER_MHZ_V2 * mhz * v * v / 1000 + LEAK_SHARE * peak * v / 1.0;
}
// Beside the busy core's power: an idle core still costs (clock-gated, not
// power-gated, between requests a few ms apart) IDLE_SHARE of peak dynamic
// power, and the uncore (interconnect, L3, memory controller: the core's
// share) UNCORE_SHARE of it all the time, at any core clock.  Both are
// assumptions, stated so that the energy ratios can be read with them.
const IDLE_SHARE = 0.05;
const UNCORE_SHARE = 0.30;
const PEAK_MW = COEFF_UW_PER_MHZ_V2 * OPP[OPP.length - 1][0] / 1000;
const energyMj = (busy) => Object.entries(busy).reduce((e, [khz, ns]) => e + powerMw(Number(khz)) * ns / 1e9, 0);

module.exports = { COEFF_UW_PER_MHZ_V2, OPP, EMU_MAX_KHZ, LEAK_SHARE, IDLE_SHARE, UNCORE_SHARE, PEAK_MW, powerMw, energyMj };
