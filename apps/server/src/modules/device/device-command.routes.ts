import { deviceCommandApi } from '@aed/contracts/device-command'
import { COMMAND_LABELS } from '@aed/contracts/device-protocol'
import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../../context.ts'
import { routes } from '../../plugins/route.ts'
import * as service from './device-command.service.ts'

/** The serial a command went to, for its log line. */
const deviceSn = new WeakMap<object, string>()

/** Commands from the device detail: self-test and locate. */
export async function deviceCommandRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const route = routes(app, ['devices'])

  route(
    deviceCommandApi.send,
    {
      permission: ['device', 'EDIT'],
      oplog: {
        type: '设备指令',
        // The answer is the command only: the serial comes from the handler, by request.
        content: (req, d) =>
          `下发指令：${deviceSn.get(req) ?? ''}（${COMMAND_LABELS[(d as { name: keyof typeof COMMAND_LABELS }).name][0]}）`,
      },
      done: 'COMMAND_SENT',
    },
    async ({ req, auth, params, body }) => {
      const { device_sn, ...row } = await service.sendCommand(ctx, auth, params.id, body.name)
      deviceSn.set(req, device_sn)
      return row
    },
  )

  route(deviceCommandApi.list, { permission: ['device', 'READ_ONLY'] }, ({ auth, params }) =>
    service.listCommands(ctx, auth, params.id),
  )
}
