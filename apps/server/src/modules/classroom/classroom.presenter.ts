import type { ClassroomItem } from '@aed/contracts/classroom'
import type { ClassroomRow } from './classroom.repository.ts'

/** An item as the console's list shows it; the detail adds its rich text. */
export function presentClassroom(row: ClassroomRow): ClassroomItem {
  return {
    ...row,
    id: Number(row.id),
    agency_id: Number(row.agency_id),
    create_time: row.create_time.toISOString(),
    update_time: row.update_time.toISOString(),
  }
}
