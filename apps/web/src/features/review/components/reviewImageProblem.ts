import { UPLOAD_MAX_BYTES } from '@aed/contracts/files'
import type { MessageKey } from '@aed/contracts/messages'
import { INSTALL_IMGS_MAX, REVIEW_IMAGE_SUFFIX } from '@aed/contracts/review'

const SUFFIXES = REVIEW_IMAGE_SUFFIX.split(',')
const TYPES = ['image/png', 'image/jpeg']

/**
 * Why a site photo may not be added, or null: a third one (最多上传2张图片), anything but a
 * jpg, jpeg or png (by name and, when the browser tells, by type), 20M or more than that.
 */
export function reviewImageProblem(
  file: Pick<File, 'name' | 'type' | 'size'>,
  held: number,
): MessageKey | null {
  if (held >= INSTALL_IMGS_MAX) return 'INSTALL_IMGS_TOO_MANY'
  const suffix = file.name.split('.').pop()?.toLowerCase() ?? ''
  if (!SUFFIXES.includes(suffix) || (file.type !== '' && !TYPES.includes(file.type)))
    return 'REVIEW_IMAGE_INVALID'
  if (file.size > UPLOAD_MAX_BYTES) return 'REVIEW_IMAGE_TOO_LARGE'
  return null
}
