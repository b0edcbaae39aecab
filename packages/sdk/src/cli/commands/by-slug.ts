import { type CommandContext, printJson } from '../context.ts';
import { EXIT_FAILED, EXIT_OK, isNotFound } from '../errors.ts';

/**
 * A command on one project by slug: a missing project is an answer, not a broken command
 * (exit 1, not 2); with --json the reply is printed as it is, otherwise `show` prints it.
 */
export async function onProject<T>(
  ctx: CommandContext,
  call: (input: { slug: string }) => Promise<T>,
  show: (reply: T) => void,
): Promise<number> {
  let reply: T;
  try {
    reply = await call({ slug: ctx.positionals[0]! });
  } catch (err) {
    if (!isNotFound(err)) throw err;
    ctx.warn(`error: ${err.details[0] ?? err.message}`);
    return EXIT_FAILED;
  }
  if (ctx.json) printJson(ctx, reply);
  else show(reply);
  return EXIT_OK;
}
