import { z } from 'zod'
import { emptyAsUnset } from './fields.ts'
import { filePart } from './files.ts'

/** The file the console saves a refused import's rows as (the spec's name). */
export const IMPORT_FAILURE_FILE_NAME = '导入失败文件.xlsx'

/**
 * A template import's upload (multipart/form-data), as the console's upload popover sends it:
 * the factory devices' and the cabinets' alike.
 */
export const importForm = z.object({
  /** The filled import template (.xlsx); its columns are the feature's. */
  import_file: filePart('IMPORT_FILE_REQUIRED'),
  /**
   * The organisation the rows go to: system organisations and general agents pick one of
   * their subtree; others (and an empty picker) import into their own organisation.
   */
  agency_id: z.preprocess(
    emptyAsUnset,
    z.coerce
      .number({ message: 'DEVICE_AGENCY_REQUIRED' })
      .int()
      .positive('DEVICE_AGENCY_REQUIRED')
      .optional(),
  ),
  /** The console's flag beside the file; carries nothing. */
  import_xls: z.string().max(10).optional(),
})

/** `data` of a refused import (code 1, 导入失败！): the rows with a reason each, as 导入失败文件.xlsx. */
export const importFailureSchema = z.object({ file_base64: z.string() })
