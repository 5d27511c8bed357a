import { type CommandRow, deviceCommandApi } from '@aed/contracts/device-command'
import { COMMAND_LABELS } from '@aed/contracts/device-protocol'
import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../../context.ts'
import { routes } from '../../plugins/route.ts'
import * as service from './device-command.service.ts'

/** The route guards of this file's area. */
const READ = { permission: ['device', 'READ_ONLY'] } as const
const EDIT = { permission: ['device', 'EDIT'] } as const

/** A sent command and, for its log line only, the device's serial (the answer is the command). */
type SentCommand = CommandRow & { device_sn: string }

/** Commands from the device detail: self-test and locate. */
export async function deviceCommandRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const route = routes(app, ['devices'])

  route(
    deviceCommandApi.send,
    {
      ...EDIT,
      oplog: {
        type: '设备指令',
        // The serial is the handler's for the log: the response schema sends the command only.
        content: (_, d: SentCommand) => `下发指令：${d.device_sn}（${COMMAND_LABELS[d.name][0]}）`,
      },
      done: 'COMMAND_SENT',
    },
    ({ auth, params, body }) => service.sendCommand(ctx, auth, params.id, body.name),
  )

  route(deviceCommandApi.list, READ, ({ auth, params }) => service.listCommands(ctx, auth, params.id))
}
