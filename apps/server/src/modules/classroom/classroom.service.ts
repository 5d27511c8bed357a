import type { ClassroomDetail, ClassroomForm, ClassroomListQuery } from '@aed/contracts/classroom'
import type { AppContext } from '../../context.ts'
import { notFound } from '../../lib/errors.ts'
import type { AuthContext } from '../../plugins/auth.ts'
import { classroomListCan, presentClassroom } from './classroom.presenter.ts'
import * as repo from './classroom.repository.ts'
import { sanitizeRichText } from './classroom.sanitize.ts'

/** One page of the subtree's items, newest first. */
export async function list(ctx: AppContext, auth: AuthContext, query: ClassroomListQuery) {
  const { count, rows } = await repo.listPage(ctx.db, auth, query)
  return { count, resource: rows.map(presentClassroom), can: classroomListCan(auth) }
}

const values = (form: ClassroomForm): repo.ClassroomValues => ({
  ...form,
  content: sanitizeRichText(form.content),
})

/** One item of the member's subtree. */
export async function detail(ctx: AppContext, auth: AuthContext, id: number): Promise<ClassroomDetail> {
  const row = await repo.findInScope(ctx.db, auth, id)
  if (!row) throw notFound()
  return { ...presentClassroom(row), content: row.content }
}

/** Creates an item owned by the member's own agency. */
export async function create(ctx: AppContext, auth: AuthContext, form: ClassroomForm) {
  const id = await repo.insert(ctx.db, auth.agency_id, auth.member_id, values(form))
  return detail(ctx, auth, id)
}

/** Changes an item of the member's subtree; its owner stays. */
export async function update(ctx: AppContext, auth: AuthContext, id: number, form: ClassroomForm) {
  if (!(await repo.update(ctx.db, auth, id, values(form)))) throw notFound()
  return detail(ctx, auth, id)
}

/** Deletes an item of the member's subtree. */
export async function remove(ctx: AppContext, auth: AuthContext, id: number) {
  const row = await repo.remove(ctx.db, auth, id)
  if (!row) throw notFound()
  return { id: Number(row.id), title: row.title }
}
