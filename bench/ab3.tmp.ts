import { execFileSync } from 'node:child_process';
import { loadProcess } from './load.ts';
import { benchDataDir, startAtalaya } from './processes.ts';

const pairs = Number(process.argv[2] ?? 4);
const path = process.argv[3] ?? '/p247/config/get/';
const envB = JSON.parse(process.env.AB_B ?? '{"ATALAYA_EXP":"1"}');
const envA = JSON.parse(process.env.AB_A ?? '{"ATALAYA_EXP":"0"}');
const data = benchDataDir();
await (await startAtalaya(data.dir)).stop();
const med = (a: number[]) => {
  const s = [...a].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const ratios: number[] = [];
const all = { A: [] as number[], B: [] as number[] };
const pin = (pid: number) => execFileSync('taskset', ['-a', '-p', '-c', '1', String(pid)]);
for (let i = 0; i < pairs; i++) {
  const A = await startAtalaya(data.dir, envA);
  pin(A.pid);
  const B = await startAtalaya(data.dir, envB);
  pin(B.pid);
  const slices = { A: [] as number[], B: [] as number[] };
  for (const s of [A, B]) await loadProcess(s, `http://127.0.0.1:${s.port}${path}`, { seconds: 3 });
  for (let k = 0; k < 6; k++) {
    for (const [n, s] of (k % 2
      ? [
          ['B', B],
          ['A', A],
        ]
      : [
          ['A', A],
          ['B', B],
        ]) as [string, typeof A][]) {
      const r = await loadProcess(s, `http://127.0.0.1:${s.port}${path}`, { seconds: 2 });
      slices[n as 'A' | 'B'].push(r.cpuMicros!);
    }
  }
  const ratio = med(slices.B) / med(slices.A);
  ratios.push(ratio);
  all.A.push(med(slices.A));
  all.B.push(med(slices.B));
  console.log(
    `pair ${i}: A ${slices.A.map((x) => x.toFixed(1)).join(' ')} | B ${slices.B.map((x) => x.toFixed(1)).join(' ')} | B/A ${ratio.toFixed(3)}`,
  );
  await A.stop();
  await B.stop();
}
console.log(
  `median A ${med(all.A).toFixed(1)} B ${med(all.B).toFixed(1)} µs; pair ratios ${ratios.map((r) => r.toFixed(3)).join(' ')}; median ${med(ratios).toFixed(3)}`,
);
data.dispose();
