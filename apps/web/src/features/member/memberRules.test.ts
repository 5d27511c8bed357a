import { describe, expect, it } from 'vitest'
import { submitProblem } from './memberRules'

describe('user dialog submit', () => {
  it('checks at submit in the spec order', () => {
    const ok = { phone: '13800000000', name: '王', email: 'a@b.cn', lat: 30 }
    expect(submitProblem({ ...ok, phone: '' })).toBe('member.phoneMissing')
    expect(submitProblem({ ...ok, phone: '1380000', name: '' })).toBe('member.phoneWrong')
    expect(submitProblem({ ...ok, name: ' ' })).toBe('member.nameMissing')
    expect(submitProblem({ ...ok, email: '' })).toBe('member.emailMissing')
    expect(submitProblem({ ...ok, email: 'a@b' })).toBe('member.emailWrong')
    expect(submitProblem({ ...ok, lat: null })).toBe('member.addressMissing')
    expect(submitProblem(ok)).toBeNull()
  })
})
