import { MsgType } from '@aed/contracts/message'
import { routePath } from '../../../lib/paths'

/** The review page of each new-submission type: a volunteer (8) or a third-party AED (9). */
const REVIEW_ROUTES: Record<number, string> = {
  [MsgType.REVIEW_SUBMISSION]: 'backendManagement-volunteer',
  [MsgType.REVIEW_AED_SUBMISSION]: 'backendManagement-thirdPartyAed',
}

/** Whether a message tells of a new public submission. */
export const isReviewMessage = (msgType: number) => msgType in REVIEW_ROUTES

/** The review page (its in-review tab) a new-submission message opens. */
export function reviewPath(msgType: number): string {
  return routePath(REVIEW_ROUTES[msgType] ?? 'backendManagement-volunteer')
}
