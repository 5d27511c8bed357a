import { z } from 'zod'
import { del, get, idParams, post, put } from './endpoint.ts'
import { paged, pageQuery } from './envelope.ts'
import { agencyFields, optionalInt, textFilter } from './fields.ts'

/** category: 1 operation video, 2 first-aid knowledge base, 3 news. */
export const ClassroomCategory = { VIDEO: 1, KNOWLEDGE: 2, NEWS: 3 } as const
/** content_type: 1 external link, 2 video, 3 rich text. */
export const ClassroomContentType = { LINK: 1, VIDEO: 2, RICH_TEXT: 3 } as const

export const CLASSROOM_TITLE_MAX = 20
export const CLASSROOM_DESCRIBE_MAX = 500
export const CLASSROOM_LINK_MAX = 1000
/** Rich text after sanitising; the request body limit (2 MB) bounds it anyway. */
export const CLASSROOM_CONTENT_MAX = 200_000

/** Characters as a person counts them (code points), so a Chinese title of 20 characters fits. */
const charCount = (s: string) => [...s].length
const blank = (s: string | null | undefined) => !s?.trim()
const HTTP_URL = /^https?:\/\/\S+$/i
/** A cover is an uploaded file's URL: absolute, or a path on this server (`/files/...`). */
const IMAGE_URL = /^(https?:\/\/|\/)\S+$/i

/**
 * The create / modify form. The required checks run in the spec's order (type, title, cover,
 * link, summary) so the first message is the one the console's form would show; a video
 * (category 1) needs only type, title and link.
 */
export const classroomForm = z
  .object({
    category: z.number().int().nullish(),
    title: z.string().nullish(),
    /** Content summary. */
    describe: z.string().nullish(),
    /** A video ID for category 1, else an http(s) URL. */
    link: z.string().nullish(),
    /** Cover image URL. */
    illustration: z.string().nullish(),
    /** 1 external link or 3 rich text; a video is always 2. Default: 3 when content is given, else 1. */
    content_type: z.number().int().nullish(),
    /** Rich text (HTML); sanitised by the server. */
    content: z.string().nullish(),
  })
  .meta({
    description:
      'Required: category, title, link; and for categories 2 and 3 also illustration and describe. Title at most 20 characters.',
  })
  .superRefine((f, c) => {
    const fail = (path: string, message: string) => c.addIssue({ code: 'custom', path: [path], message })
    if (f.category === null || f.category === undefined) return fail('category', 'CLASSROOM_TYPE_REQUIRED')
    if (![1, 2, 3].includes(f.category)) return fail('category', 'CLASSROOM_TYPE_INVALID')
    const video = f.category === ClassroomCategory.VIDEO
    if (blank(f.title)) return fail('title', 'CLASSROOM_TITLE_REQUIRED')
    if (charCount(f.title!.trim()) > CLASSROOM_TITLE_MAX) return fail('title', 'CLASSROOM_TITLE_TOO_LONG')
    if (!video && blank(f.illustration)) return fail('illustration', 'CLASSROOM_COVER_REQUIRED')
    if (!blank(f.illustration) && !IMAGE_URL.test(f.illustration!.trim()))
      return fail('illustration', 'CLASSROOM_COVER_INVALID')
    if ((f.illustration?.trim().length ?? 0) > CLASSROOM_LINK_MAX)
      return fail('illustration', 'TEXT_TOO_LONG')
    if (blank(f.link)) return fail('link', 'CLASSROOM_LINK_REQUIRED')
    if (f.link!.trim().length > CLASSROOM_LINK_MAX) return fail('link', 'TEXT_TOO_LONG')
    if (!video && !HTTP_URL.test(f.link!.trim())) return fail('link', 'CLASSROOM_LINK_INVALID')
    if (!video && blank(f.describe)) return fail('describe', 'CLASSROOM_DESCRIBE_REQUIRED')
    if (charCount(f.describe?.trim() ?? '') > CLASSROOM_DESCRIBE_MAX) return fail('describe', 'TEXT_TOO_LONG')
    if (!video && f.content_type != null && f.content_type !== 1 && f.content_type !== 3)
      return fail('content_type', 'CLASSROOM_CONTENT_TYPE_INVALID')
    if ((f.content?.length ?? 0) > CLASSROOM_CONTENT_MAX) return fail('content', 'TEXT_TOO_LONG')
  })
  .transform((f) => {
    const video = f.category === ClassroomCategory.VIDEO
    const content = f.content?.trim() ?? ''
    return {
      category: f.category as 1 | 2 | 3,
      title: f.title!.trim(),
      describe: f.describe?.trim() ?? '',
      link: f.link!.trim(),
      illustration: f.illustration?.trim() || null,
      content_type: (video ? 2 : (f.content_type ?? (content ? 3 : 1))) as 1 | 2 | 3,
      content,
    }
  })
export type ClassroomForm = z.output<typeof classroomForm>

/** One classroom item as lists show it. */
export const classroomItemSchema = z.object({
  id: z.number().int(),
  /** Owner: the creator's organisation. */
  ...agencyFields,
  title: z.string(),
  category: z.number().int(),
  describe: z.string(),
  link: z.string(),
  illustration: z.string().nullable(),
  content_type: z.number().int(),
  /** Name of the member who created it. */
  creator_name: z.string().nullable(),
  create_time: z.string(),
  update_time: z.string(),
})
export type ClassroomItem = z.infer<typeof classroomItemSchema>

/** What the signed-in member may do on the classroom page (computed on the server): add and edit with EDIT on system management, delete with ALL. */
export const classroomListCanSchema = z.object({
  create: z.boolean(),
  edit: z.boolean(),
  delete: z.boolean(),
})

/** The detail adds the (sanitised) rich text. */
export const classroomDetailSchema = classroomItemSchema.extend({ content: z.string() })
export type ClassroomDetail = z.infer<typeof classroomDetailSchema>

export const classroomListQuery = pageQuery.extend({
  /** Title contains. */
  title: textFilter,
  category: optionalInt(1, 3),
})

export type ClassroomListQuery = z.output<typeof classroomListQuery>

/** Every call of the first-aid classroom page. */
export const classroomApi = {
  list: get('/api/v1/aid-classroom/', {
    summary: 'Classroom items of the member’s subtree, newest first',
    query: classroomListQuery,
    response: paged(classroomItemSchema).extend({ can: classroomListCanSchema }),
  }),
  create: post('/api/v1/aid-classroom/', {
    summary: 'Create an item owned by the member’s organisation',
    body: classroomForm,
    response: classroomDetailSchema,
  }),
  detail: get('/api/v1/aid-classroom/:id', {
    summary: 'One item, with its rich text',
    params: idParams,
    response: classroomDetailSchema,
  }),
  update: put('/api/v1/aid-classroom/:id', {
    summary: 'Modify an item of the member’s subtree',
    params: idParams,
    body: classroomForm,
    response: classroomDetailSchema,
  }),
  remove: del('/api/v1/aid-classroom/:id', {
    summary: 'Delete an item of the member’s subtree',
    params: idParams,
    response: z.object({ id: z.number().int(), title: z.string() }),
  }),
}
