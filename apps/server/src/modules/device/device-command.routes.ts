import { deviceCommandApi } from '@aed/contracts/device-command'
import { COMMAND_LABELS } from '@aed/contracts/device-protocol'
import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../../context.ts'
import { routes } from '../../lib/route.ts'
import * as service from './device-command.service.ts'

/** Commands from the device detail: self-test and locate. */
export async function deviceCommandRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const route = routes(app, ['devices'])

  route(
    deviceCommandApi.send,
    {
      permission: ['device', 'EDIT'],
      oplog: {
        type: '设备指令',
        content: (_r, d) => {
          const x = d as { device_sn: string; name: keyof typeof COMMAND_LABELS }
          return `下发指令：${x.device_sn}（${COMMAND_LABELS[x.name][0]}）`
        },
      },
      done: 'COMMAND_SENT',
    },
    async ({ auth, params, body }) => {
      const { device_sn: _sn, ...row } = await service.sendCommand(ctx, auth, params.id, body.name)
      return row
    },
  )

  route(deviceCommandApi.list, { permission: ['device', 'READ_ONLY'] }, ({ auth, params }) =>
    service.listCommands(ctx, auth, params.id),
  )
}
