import fs from 'node:fs'
import { MESSAGE_TYPES } from '@aed/contracts/device-protocol'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { DOC_PATH, duration, fieldTable, generateBlocks, renderDoc } from './protocol-doc.ts'

// docs/device-protocol.md cannot drift from the protocol: its tables are what protocol-doc.ts
// generates from the schemas of packages/contracts/src/device-protocol.ts, checked here.

const RUN = 'run `npm run docs:protocol` and commit docs/device-protocol.md'

describe('docs/device-protocol.md', () => {
  const doc = fs.readFileSync(DOC_PATH, 'utf8')

  it('holds exactly the tables the protocol’s schemas generate now', () => {
    let fresh: string
    try {
      fresh = renderDoc(doc)
    } catch (e) {
      throw new Error(`${(e as Error).message}; then ${RUN}`)
    }
    expect(doc, `docs/device-protocol.md is out of date with the protocol's schemas: ${RUN}`).toBe(fresh)
  })

  it('has a table for every message type and stands alone', () => {
    const blocks = generateBlocks()
    for (const type of MESSAGE_TYPES) {
      expect(doc).toContain(`<!-- generated:message:${type} -->`)
      expect(blocks.get(`message:${type}`)).toContain('| `data.')
    }
    expect(doc).not.toContain('shared/spec')
  })
})

describe('the generator', () => {
  it('refuses a doc that lacks a block, or holds one it does not make', () => {
    const blocks = new Map([['a', 'table a']])
    expect(() => renderDoc('no markers', blocks)).toThrow(/lacks the blocks a/)
    const stray =
      '<!-- generated:a -->\n<!-- /generated:a -->\n<!-- generated:b -->\nold\n<!-- /generated:b -->'
    expect(() => renderDoc(stray, blocks)).toThrow(/unknown block generated:b/)
    expect(renderDoc('x\n<!-- generated:a -->\nold\n<!-- /generated:a -->\ny', blocks)).toBe(
      'x\n<!-- generated:a -->\ntable a\n<!-- /generated:a -->\ny',
    )
  })

  it('refuses a field without a description, naming it', () => {
    const schema = z.object({ said: z.number().describe('Described'), unsaid: z.string() })
    expect(() => fieldTable('example', schema)).toThrow(/example: no description for unsaid/)
  })

  it('reads type, requirement, range and format from the schema', () => {
    const schema = z.object({
      n: z.number().int().min(0).max(100).describe('A number'),
      s: z.string().trim().min(1).max(16).optional().describe('A text'),
      e: z.enum(['a', 'b']).describe('A choice'),
      l: z.array(z.string().max(4)).max(3).default([]).describe('A list'),
    })
    expect(fieldTable('example', schema).split('\n').slice(2)).toEqual([
      '| `n` | integer | yes | 0 to 100 | A number |',
      '| `s` | string | no | 1 to 16 characters; spaces around it trimmed | A text |',
      '| `e` | string | yes | `a`, `b` | A choice |',
      '| `l` | array of string | no | at most 3 items; each at most 4 characters; default `[]` | A list |',
    ])
    expect([duration(15 * 60_000), duration(24 * 3600_000), duration(30 * 86_400_000)]).toEqual([
      '15 minutes',
      '24 hours',
      '30 days',
    ])
  })
})
