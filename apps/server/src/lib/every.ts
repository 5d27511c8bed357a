/**
 * A scheduled job (context.ts `Job`) from its name, its period and what it runs; what the run
 * answers (a count) is not kept.
 */
export function every<C>(name: string, everyMs: number, run: (ctx: C, now: Date) => Promise<unknown>) {
  return {
    name,
    everyMs,
    async run(ctx: C, now: Date) {
      await run(ctx, now)
    },
  }
}
