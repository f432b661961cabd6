// Preloaded with --import into a process a benchmark spawns (never into a timed run: the
// hook costs a little on every module): when the process exits, prints how many modules
// it loaded (ES modules and CommonJS alike, through module.registerHooks), the public
// built-ins Node loaded for it (this hook's own node:fs and node:module among them), and
// its peak RSS.
import { writeSync } from 'node:fs';
import { registerHooks } from 'node:module';

let modules = 0;
registerHooks({
  load(url, context, nextLoad) {
    modules += 1;
    return nextLoad(url, context);
  },
});
process.on('exit', () => {
  const maxRssMb = process.resourceUsage().maxRSS / 1024;
  const builtins = process.moduleLoadList
    .filter((m) => m.startsWith('NativeModule ') && !m.startsWith('NativeModule internal/'))
    .map((m) => m.slice('NativeModule '.length));
  writeSync(2, `\nPROCESS-REPORT ${JSON.stringify({ modules, builtins, maxRssMb })}\n`);
});
