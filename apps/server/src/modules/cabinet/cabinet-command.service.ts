import type { CABINET_CONSOLE_COMMANDS } from '@aed/contracts/cabinet'
import type { AppContext } from '../../context.ts'
import { forbidden } from '../../lib/errors.ts'
import type { AuthContext } from '../../plugins/auth.ts'
import { commandsOf, issueCommand, presentCommand } from '../device/device-command.service.ts'
import { cabinetRules } from './cabinet.presenter.ts'
import { cabinetInScope } from './cabinet.service.ts'

// A cabinet's commands: the cabinet of the scope, then the device module's command mechanism
// (stored, told to the gateway, expired unanswered), which serves AEDs and cabinets alike.

/** A super administrator asks a cabinet of the scope to unlock or sound its siren. */
export async function sendCabinetCommand(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
  name: (typeof CABINET_CONSOLE_COMMANDS)[number],
) {
  if (!cabinetRules.command(auth)) throw forbidden()
  const cabinet = await cabinetInScope(ctx.db, auth, id)
  const row = await issueCommand(ctx, auth, { kind: 'cabinet', id: cabinet.id, sn: cabinet.cabinet_sn }, name)
  return { ...presentCommand(row), cabinet_sn: cabinet.cabinet_sn }
}

/** The cabinet's last commands, with their state and the cabinet's ack. */
export async function listCabinetCommands(ctx: AppContext, auth: AuthContext, id: number) {
  const cabinet = await cabinetInScope(ctx.db, auth, id)
  return commandsOf(ctx, 'cabinet', cabinet.id)
}
