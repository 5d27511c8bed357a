import { regionPrefix } from '@aed/contracts/regions'
import type { RescueListQuery, rescueFileQuery } from '@aed/contracts/rescue'
import type { z } from 'zod'
import type { AppContext } from '../../context.ts'
import { invalid, notFound } from '../../lib/errors.ts'
import type { AuthContext } from '../../plugins/auth.ts'
import { privateKeyOf } from '../../providers/storage/storage-provider.ts'
import { presentRescue } from './rescue.presenter.ts'
import * as repo from './rescue.repository.ts'

/** One page of the rescues of the member's subtree, newest first, by the page's filters. */
export async function listRescues(ctx: AppContext, auth: AuthContext, q: RescueListQuery) {
  const { count, rows } = await repo.listRescues(
    ctx.db,
    auth,
    {
      device_sn: q.device_sn || undefined,
      region: q.address_code ? regionPrefix(q.address_code) : undefined,
      start_time: q.start_time,
      end_time: q.end_time,
    },
    { page: q.page, page_size: q.page_size },
  )
  return { count, resource: rows.map(presentRescue) }
}

/** A name the ECG is saved under: serial and the device's id of the rescue, in plain characters. */
const fileNameOf = (sn: string, rescueEventId: string) =>
  `ECG_${sn}_${rescueEventId.replace(/[^A-Za-z0-9_-]/g, '_')}.bin`

/**
 * A short-lived link to the ECG of a rescue the member sees (文件未上传！ when the device sent
 * none). The file is the rescue's own: the URL the list gave is not trusted to name it.
 */
export async function fileDownload(ctx: AppContext, auth: AuthContext, q: z.output<typeof rescueFileQuery>) {
  const rescue = await repo.rescueFile(ctx.db, auth, q)
  if (!rescue) throw notFound()
  const key = rescue.ecg_file_url ? privateKeyOf(rescue.ecg_file_url) : null
  if (!key) throw invalid('RESCUE_FILE_MISSING')
  const file_name = fileNameOf(rescue.device_sn, rescue.rescue_event_id)
  return { ...ctx.fileLinks.link(key, file_name, ctx.clock.now()), file_name }
}
