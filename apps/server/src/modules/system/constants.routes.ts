import { envelope } from '@aed/contracts'
import {
  AED_BRANDS,
  APP_SERVICES,
  type Constants,
  constantsSchema,
  DEFAULT_COORDINATE,
  DEVICE_MODELS,
  dataDictSchema,
  labelIn,
  localDataDict,
} from '@aed/contracts/constants'
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import type { AppContext } from '../../context.ts'
import { langOf } from '../../lib/lang.ts'
import { ok } from '../../plugins/envelope.ts'
import { importTemplateUrl } from './import-template.ts'

const tags = ['system']

/** Common configuration and the data dictionary, for every signed-in member. */
export async function constantsRoutes(base: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = base.withTypeProvider<ZodTypeProvider>()

  app.get(
    '/api/v1/system/constants/',
    {
      schema: {
        tags,
        summary: 'Device models and brands, the default map point, the organisation service names',
        response: { 200: envelope(constantsSchema) },
      },
    },
    async (req) => {
      const lang = langOf(req)
      const data: Constants = {
        device: {
          model: { ...DEVICE_MODELS },
          brand: AED_BRANDS.map((b) => b.name),
          default_coordinate: { ...DEFAULT_COORDINATE },
        },
        app_service: Object.fromEntries(Object.entries(APP_SERVICES).map(([k, v]) => [k, labelIn(v, lang)])),
      }
      return ok(req, data)
    },
  )

  app.get(
    '/api/v1/system/data-dict',
    {
      schema: {
        tags,
        summary:
          'Every enumeration with labels in the requester’s language, and the device import template URL',
        response: { 200: envelope(dataDictSchema) },
      },
    },
    async (req) =>
      ok(req, {
        ...localDataDict(langOf(req)),
        device_import_template: await importTemplateUrl(ctx.storage),
      }),
  )
}
