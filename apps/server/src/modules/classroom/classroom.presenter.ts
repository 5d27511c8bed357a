import { can } from '@aed/contracts'
import type { ClassroomItem } from '@aed/contracts/classroom'
import type { AuthContext } from '../../plugins/auth.ts'
import type { ClassroomRow } from './classroom.repository.ts'

/** An item as the console's list shows it; the detail adds its rich text. */
/**
 * What the signed-in member may do on the classroom page, as its routes' guards: add and edit
 * with system management EDIT, delete with ALL.
 */
export function classroomListCan(auth: AuthContext) {
  return {
    create: can(auth, 'agency', 'EDIT'),
    edit: can(auth, 'agency', 'EDIT'),
    delete: can(auth, 'agency', 'ALL'),
  }
}

export function presentClassroom(row: ClassroomRow): ClassroomItem {
  return {
    ...row,
    id: Number(row.id),
    agency_id: Number(row.agency_id),
    create_time: row.create_time.toISOString(),
    update_time: row.update_time.toISOString(),
  }
}
