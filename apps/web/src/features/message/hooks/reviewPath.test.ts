import { MsgType } from '@aed/contracts/message'
import { describe, expect, it } from 'vitest'
import { isReviewMessage, reviewPath } from './reviewPath'
import { actionOf } from './useHandleMessage'

describe('review messages (types 8 and 9)', () => {
  it('have a 详情 button', () => {
    expect(actionOf(MsgType.REVIEW_SUBMISSION)).toBe('details')
    expect(actionOf(MsgType.REVIEW_AED_SUBMISSION)).toBe('details')
    expect(isReviewMessage(MsgType.CALL)).toBe(false)
  })

  it('open the volunteers or the third-party AEDs', () => {
    expect(reviewPath(MsgType.REVIEW_SUBMISSION)).toBe('/backendManagement/volunteer')
    expect(reviewPath(MsgType.REVIEW_AED_SUBMISSION)).toBe('/backendManagement/thirdPartyAed')
  })
})
