import { z } from 'zod'
import { AED_CONSOLE_COMMANDS, COMMAND_NAMES, COMMAND_STATES } from './device-protocol.ts'
import { get, idParams, post } from './endpoint.ts'

/** A super administrator asks a device to do something now (it runs when the device is reached). */
export const commandForm = z.object({
  name: z.enum(AED_CONSOLE_COMMANDS, { message: 'COMMAND_INVALID' }),
})
export type CommandForm = z.output<typeof commandForm>

/** A command as the console shows it: where it is and what the device answered. */
export const commandSchema = z.object({
  cmd_id: z.string(),
  name: z.enum(COMMAND_NAMES),
  state: z.enum(COMMAND_STATES),
  creator_name: z.string().nullable(),
  create_time: z.string(),
  expires_at: z.string(),
  /** When it went to the device (MQTT publish, or an HTTPS answer's `cmds`). */
  sent_at: z.string().nullable(),
  /** When the device's `ack` arrived, and its error when it failed. */
  ack_time: z.string().nullable(),
  error: z.string().nullable(),
})
export type CommandRow = z.infer<typeof commandSchema>

/** Commands of the device detail. */
export const deviceCommandApi = {
  send: post('/api/v1/device/:id/command', {
    summary: 'Ask a device for a self-test or its location (system super administrators)',
    params: idParams,
    body: commandForm,
    response: commandSchema,
  }),
  list: get('/api/v1/device/:id/command', {
    summary: 'The last 20 commands sent to a device, newest first, with their state and answer',
    params: idParams,
    response: z.array(commandSchema),
  }),
}
