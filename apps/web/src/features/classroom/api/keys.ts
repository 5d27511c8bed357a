import { resourceKeys } from '../../../lib/queryKeys'

/** Query keys of the first-aid classroom: lists and details. */
export const classroomKeys = resourceKeys('classroom')
