import type { CommandRow } from '@aed/contracts/device-command'

/** While a command waits for the device or its answer, the list refreshes this often. */
export const COMMAND_POLL_MS = 5000

/** How soon to ask again: every 5 s while a command waits for the device or its answer, else not. */
export function commandPoll(rows: CommandRow[] | undefined): number | false {
  return rows?.some((c) => c.state === 'pending' || c.state === 'sent') ? COMMAND_POLL_MS : false
}
