import { describe, expect, it } from 'vitest'
import { classroomProblem, toClassroomBody } from './classroomRules'

const full = {
  category: 2,
  title: '心肺复苏',
  illustration: '/files/a.png',
  link: 'https://a.cn',
  describe: '简介',
}

describe('classroom dialog rules', () => {
  it('checks type, title, cover, link, summary in that order', () => {
    expect(classroomProblem({})).toBe('classroom.typeRequired')
    expect(classroomProblem({ ...full, title: ' ' })).toBe('classroom.titleRequired')
    expect(classroomProblem({ ...full, title: '一'.repeat(21) })).toBe('classroom.titleTooLong')
    expect(classroomProblem({ ...full, title: '一'.repeat(20) })).toBeNull()
    expect(classroomProblem({ ...full, illustration: null, link: '' })).toBe('classroom.coverRequired')
    expect(classroomProblem({ ...full, link: '' })).toBe('classroom.linkRequired')
    expect(classroomProblem({ ...full, describe: '' })).toBe('classroom.describeRequired')
  })

  it('asks a video only for type, title and link', () => {
    expect(classroomProblem({ category: 1, title: '操作', link: 'v123' })).toBeNull()
    expect(classroomProblem({ category: 1, title: '操作' })).toBe('classroom.linkRequired')
  })

  it('sends a video as content type 2 and rich text only with content type 3', () => {
    expect(
      toClassroomBody({ category: 1, title: 'a', link: 'v1', describe: 'x', illustration: '/i.png' }),
    ).toMatchObject({
      content_type: 2,
      illustration: null,
      describe: '',
    })
    expect(toClassroomBody({ ...full, content_type: 1, content: '<p>x</p>' }).content).toBe('')
    expect(toClassroomBody({ ...full, content_type: 3, content: '<p>x</p>' }).content).toBe('<p>x</p>')
  })
})
