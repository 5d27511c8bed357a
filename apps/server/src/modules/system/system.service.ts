import type { Lang } from '@aed/contracts'
import {
  AED_BRANDS,
  APP_SERVICES,
  DEFAULT_COORDINATE,
  DEVICE_MODELS,
  labelIn,
  localDataDict,
} from '@aed/contracts/constants'
import type { AppContext } from '../../context.ts'
import { importTemplateUrl } from './import-template.ts'

/** Device models and brands, the default map point and the service names, in the language. */
export function constants(lang: Lang) {
  return {
    device: {
      model: { ...DEVICE_MODELS },
      brand: AED_BRANDS.map((b) => b.name),
      default_coordinate: { ...DEFAULT_COORDINATE },
    },
    app_service: Object.fromEntries(Object.entries(APP_SERVICES).map(([k, v]) => [k, labelIn(v, lang)])),
  }
}

/** Every enumeration labelled in the language, and where the device import template is. */
export async function dataDict(ctx: AppContext, lang: Lang) {
  return { ...localDataDict(lang), device_import_template: await importTemplateUrl(ctx.storage) }
}
