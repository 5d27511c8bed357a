import type { AgencyNode } from '@aed/contracts/agency'
import { describe, expect, it } from 'vitest'
import { agencyTypeOptions, expandableKeys, levelUnder, parentOptions } from './agency-rules.ts'

const node = (id: number, agency_type: number, level: number, kids: AgencyNode[] = []): AgencyNode => ({
  id,
  name: `n${id}`,
  index_link: `/${id}/`,
  agency_type,
  level,
  disabled: false,
  kids,
})
const tree = [node(1, 0, 1, [node(2, 1, 2, [node(4, 2, 3)]), node(3, 1, 2)])]

describe('organisation dialog rules', () => {
  it('offers system only when editing and general agent to system members or when editing', () => {
    expect(agencyTypeOptions(false, 0)).toEqual([1, 2])
    expect(agencyTypeOptions(false, 1)).toEqual([2])
    expect(agencyTypeOptions(false, 2)).toEqual([2])
    expect(agencyTypeOptions(true, 2)).toEqual([0, 1, 2])
  })

  it('offers a general agent its own organisation and the system the general agents as parents', () => {
    expect(parentOptions(tree, { agency_type: 1, agency_id: 2 }).map((n) => n.id)).toEqual([2])
    expect(parentOptions(tree, { agency_type: 0, agency_id: 1 }).map((n) => n.id)).toEqual([2, 3])
    expect(parentOptions(tree, { agency_type: 2, agency_id: 4 })).toEqual([])
  })

  it('puts a new organisation one level below its parent', () => {
    expect(levelUnder(2, 1)).toBe(3)
    expect(levelUnder(undefined, 1)).toBe(2)
    expect(levelUnder(undefined, undefined)).toBe(1)
  })

  it('lists the keys the expand-all button opens', () => {
    expect(expandableKeys(tree)).toEqual(['/1/', '/2/'])
  })
})
