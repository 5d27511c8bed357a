import type { BodyIn } from '@aed/contracts'
import {
  CLASSROOM_TITLE_MAX,
  ClassroomCategory,
  ClassroomContentType,
  type classroomApi,
} from '@aed/contracts/classroom'

/** The classroom form as the dialog sends it; the server applies the required rules. */
export type ClassroomBody = BodyIn<typeof classroomApi.create>

/** The dialog's fields. */
export type ClassroomValues = {
  category?: number
  title?: string
  illustration?: string | null
  link?: string
  describe?: string
  content_type?: number
  content?: string
}

/** Characters as a person counts them, so a 20-character Chinese title fits. */
export const titleLength = (s: string) => [...s].length

/**
 * The first required field that is missing, in the spec's order (type, title, cover, link,
 * summary); a video needs only type, title and link. Answers an i18n key.
 */
export function classroomProblem(v: ClassroomValues): string | null {
  const blank = (s: string | null | undefined) => !s?.trim()
  const video = v.category === ClassroomCategory.VIDEO
  if (v.category === undefined) return 'classroom.typeRequired'
  if (blank(v.title)) return 'classroom.titleRequired'
  if (titleLength(v.title!.trim()) > CLASSROOM_TITLE_MAX) return 'classroom.titleTooLong'
  if (!video && blank(v.illustration)) return 'classroom.coverRequired'
  if (blank(v.link)) return 'classroom.linkRequired'
  if (!video && blank(v.describe)) return 'classroom.describeRequired'
  return null
}

/** The request body: a video is always content type 2; rich text only travels with content type 3. */
export function toClassroomBody(v: ClassroomValues) {
  const video = v.category === ClassroomCategory.VIDEO
  const type = video ? ClassroomContentType.VIDEO : (v.content_type ?? ClassroomContentType.LINK)
  return {
    category: v.category as number,
    title: v.title?.trim() ?? '',
    describe: video ? '' : (v.describe?.trim() ?? ''),
    link: v.link?.trim() ?? '',
    illustration: video ? null : (v.illustration ?? null),
    content_type: type,
    content: type === ClassroomContentType.RICH_TEXT ? (v.content ?? '') : '',
  } satisfies ClassroomBody
}
