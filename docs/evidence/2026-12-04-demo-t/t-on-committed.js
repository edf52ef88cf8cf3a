// After the fact, exploratory (run before the plan, on 2026-12-04 about 03:30): the paired t statistics
// of demo/compare.js applied by hand to committed demo runs; per comparison the geometric mean of
// the pairs' ratios and its 95% t interval, HI/LO where it excludes zero.
// node docs/evidence/2026-12-04-demo-t/t-on-committed.js demo/runs/2026-12-0[13]-*
const fs=require('fs'),path=require('path');
const {t975}=require('../../../experiment/paired.js');
const q=(s,p)=>s[Math.min(s.length-1,Math.ceil(p*s.length)-1)];
const p99=(r)=>{const a=Float64Array.from(r.raw,x=>x[2]).sort();return q(a,0.99)};
const mn=(r)=>{let s=0;for(const x of r.raw)s+=x[2];return s/r.raw.length};
function t(vals){const n=vals.length,m=vals.reduce((a,x)=>a+x,0)/n,sd=Math.sqrt(vals.reduce((a,x)=>a+(x-m)**2,0)/(n-1));const h=t975(n-1)*sd/Math.sqrt(n);return [m-h,m,m+h].map(x=>((Math.exp(x)-1)*100).toFixed(1))}
for(const dir of process.argv.slice(2)){const d=JSON.parse(fs.readFileSync(path.join(dir,'demo.json')));
 const out=[];
 const cmp=(pairs,f,a,b,lab)=>{const [lo,m,hi]=t(pairs.map(p=>Math.log(f(p[a])/f(p[b]))));out.push(`${lab} ${m} [${lo},${hi}]${+lo>0?' HI':+hi<0?' LO':''}`)};
 if(d.service.length&&d.service[0].gov){cmp(d.service,p99,'on','off','on/off p99');cmp(d.service,mn,'on','off','on/off mean');cmp(d.service,p99,'gov','off','gov p99');cmp(d.service,mn,'gov','off','gov mean');cmp(d.service,p99,'on','gov','on/gov p99');cmp(d.service,mn,'on','gov','on/gov mean');}
 if(d.overload.length){cmp(d.overload,r=>r.rps,'on','off','ovl rps');cmp(d.overload,r=>r.p99,'on','off','ovl p99');}
 console.log(path.basename(dir)+'\n  '+out.join('\n  '));}
