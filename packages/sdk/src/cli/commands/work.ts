import { spawn } from 'node:child_process';
import type { LeasedTask, ProjectInput } from '../../index.ts';
import { type Command, intOption, stringOption } from '../args.ts';
import { printJson } from '../context.ts';
import { EXIT_FAILED, EXIT_OK, UsageError } from '../errors.ts';

const MAX_STDERR = 2000;

/**
 * Runs `command` in a shell for one task: the task as JSON on stdin (without its lease token,
 * which the command has no use for), its stdout read as the ProjectInput. A non-zero exit
 * rejects with the end of its stderr; the signal kills it.
 */
function execTask(command: string, task: LeasedTask, signal: AbortSignal): Promise<ProjectInput> {
  return new Promise((resolve, reject) => {
    // its own process group, so that stopping kills the shell and whatever it started
    const child = spawn(command, { shell: true, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr = (stderr + d).slice(-MAX_STDERR);
    });
    const kill = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
      } catch {
        child.kill('SIGTERM');
      }
    };
    signal.addEventListener('abort', kill, { once: true });
    child.stdin.on('error', () => {}); // a command that does not read stdin
    const { leaseToken: _token, ...shown } = task;
    child.stdin.end(`${JSON.stringify(shown)}\n`);
    child.once('error', (err) => reject(err));
    child.once('close', (code, sig) => {
      signal.removeEventListener('abort', kill);
      if (code !== 0) {
        const why = stderr.trim() || `exited with ${code ?? sig}`;
        return reject(new Error(why));
      }
      try {
        resolve(JSON.parse(stdout) as ProjectInput);
      } catch {
        reject(new Error(`stdout is not JSON: ${stdout.slice(0, 200)}`));
      }
    });
  });
}

export const work: Command = {
  name: 'work',
  summary: 'Work the task queue: run a command for each claimed task',
  synopsis: 'work --exec <command> [options]',
  help: `
Claims tasks and runs <command> (in a shell) for each: the task as JSON on stdin, and the
ProjectInput it prints on stdout completes the task (with the lease token, so a result that
comes after the lease was lost is refused). A non-zero exit gives the task back with the
command's stderr as its errorMessage and a backoff. The lease is renewed every third of it
while the command runs. SIGTERM or Ctrl-C stops: running commands are killed and their tasks
given back at once.

Options:
  --exec <command>      the command to run for each task (required)
  --concurrency <N>     commands at once (default 1)
  --lease <S>           lease seconds, 5-3600 (default 300)
  --worker <label>      shown on the claimed tasks as 'worker'
  --drain               exit when no task is claimable and none is running (default: wait for more)

Exit code with --drain: 0 when every task was completed, 1 when some were given back or failed.

Example:
  directory work --exec './crawl.py' --concurrency 4 --worker crawler-1`,
  options: {
    exec: { type: 'string' },
    concurrency: { type: 'string' },
    lease: { type: 'string' },
    worker: { type: 'string' },
    drain: { type: 'boolean' },
  },
  args: { min: 0, max: 0 },

  async run(ctx) {
    const command = stringOption(ctx.values, 'exec');
    if (!command) throw new UsageError('--exec <command> is required', 'work');
    const concurrency = intOption(ctx.values, 'concurrency', 'work') ?? 1;
    if (concurrency < 1) throw new UsageError('--concurrency must be at least 1', 'work');
    const leaseSeconds = intOption(ctx.values, 'lease', 'work') ?? 300;
    if (leaseSeconds < 5 || leaseSeconds > 3600) throw new UsageError('--lease must be 5-3600', 'work');
    const worker = stringOption(ctx.values, 'worker');
    const signal = ctx.io.stopSignal?.();
    const totals = await ctx.client.runWorker({
      handler: (task, { signal: taskSignal }) => execTask(command, task, taskSignal),
      concurrency,
      leaseSeconds,
      ...(worker !== undefined && { worker }),
      ...(signal && { signal }),
      stopWhenEmpty: ctx.values.drain === true,
      onEvent: (e) => {
        if (e.type === 'error')
          return ctx.warn(`warning: ${e.error instanceof Error ? e.error.message : String(e.error)}`);
        const line =
          e.type === 'completed'
            ? `${e.action} ${e.projectId}${e.warnings ? ` (warning: ${e.warnings.join('; ')})` : ''}`
            : e.error.split('\n')[0];
        ctx.warn(`${e.type} ${e.task.id} ${e.task.sourceUrl}: ${line}`);
      },
    });
    if (ctx.json) printJson(ctx, { success: true, ...totals });
    else
      ctx.print(
        `completed ${totals.completed}, released ${totals.released}, failed ${totals.failed}, lost ${totals.lost}`,
      );
    return totals.released + totals.failed + totals.lost > 0 && ctx.values.drain ? EXIT_FAILED : EXIT_OK;
  },
};
