/** Demo-data progress: what seed, backfill and catch-up report, and its printing for `npm start` and the CLI. */

/** How far a phase of loading the demo data has come. */
export interface DemoProgress {
  phase: string;
  done: number;
  total: number;
}

/** Prints at most every `everyMs` (and at the end); on a terminal it rewrites one line. */
export function progressPrinter(label: string, everyMs = 2000): (p: DemoProgress) => void {
  let lastPrinted = 0;
  const tty = process.stdout.isTTY === true;
  return (p) => {
    const now = Date.now();
    if (now - lastPrinted < everyMs && p.done < p.total) return;
    lastPrinted = now;
    const pct = p.total > 0 ? Math.floor((100 * p.done) / p.total) : 100;
    const line = `  ${label}: ${p.phase} ${pct}% (${p.done}/${p.total})`;
    if (tty) process.stdout.write(`\r${line}${p.done >= p.total ? '\n' : ''}`);
    else console.log(line);
  };
}
