import { describe, expect, it } from 'vitest'
import { reviewImageProblem } from './reviewImageProblem'

const file = (name: string, type: string, size = 100) => ({ name, type, size })

describe('reviewImageProblem', () => {
  it('takes a jpg, jpeg or png under 20M while fewer than two are held', () => {
    expect(reviewImageProblem(file('a.JPG', 'image/jpeg'), 0)).toBeNull()
    expect(reviewImageProblem(file('a.jpeg', ''), 1)).toBeNull()
    expect(reviewImageProblem(file('a.png', 'image/png', 20 * 1024 * 1024), 1)).toBeNull()
  })

  it('refuses a third image, anything else, and 20M or more', () => {
    expect(reviewImageProblem(file('a.png', 'image/png'), 2)).toBe('INSTALL_IMGS_TOO_MANY')
    expect(reviewImageProblem(file('a.txt', 'text/plain'), 0)).toBe('REVIEW_IMAGE_INVALID')
    expect(reviewImageProblem(file('a.png', 'image/gif'), 0)).toBe('REVIEW_IMAGE_INVALID')
    expect(reviewImageProblem(file('a.png', 'image/png', 20 * 1024 * 1024 + 1), 0)).toBe(
      'REVIEW_IMAGE_TOO_LARGE',
    )
  })
})
