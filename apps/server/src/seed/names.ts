import type { Rng } from '../lib/random.ts'

// Chinese personal names for the demo responders and the responder benchmark: common surnames
// weighted by how often they occur, and the given-name characters usual for men and women.

/** Surnames with a rough weight (how many in a hundred people carry it). */
export const SURNAMES: readonly (readonly [string, number])[] = [
  ['王', 7.1],
  ['李', 7.0],
  ['张', 6.8],
  ['刘', 5.4],
  ['陈', 4.6],
  ['杨', 3.1],
  ['黄', 2.4],
  ['赵', 2.3],
  ['吴', 2.0],
  ['周', 1.9],
  ['徐', 1.4],
  ['孙', 1.4],
  ['马', 1.3],
  ['朱', 1.3],
  ['胡', 1.2],
  ['郭', 1.2],
  ['何', 1.1],
  ['林', 1.1],
  ['高', 1.1],
  ['罗', 0.9],
  ['郑', 0.9],
  ['梁', 0.9],
  ['谢', 0.8],
  ['宋', 0.7],
  ['唐', 0.7],
  ['许', 0.6],
  ['韩', 0.6],
  ['冯', 0.6],
  ['邓', 0.6],
  ['曹', 0.6],
  ['彭', 0.5],
  ['曾', 0.5],
  ['肖', 0.5],
  ['田', 0.5],
  ['董', 0.5],
  ['袁', 0.4],
  ['潘', 0.4],
  ['蒋', 0.4],
  ['蔡', 0.4],
  ['余', 0.4],
  ['杜', 0.4],
  ['叶', 0.4],
  ['程', 0.4],
  ['苏', 0.4],
  ['魏', 0.3],
  ['吕', 0.3],
  ['丁', 0.3],
  ['沈', 0.3],
  ['姚', 0.3],
  ['卢', 0.3],
  ['姜', 0.3],
  ['钟', 0.3],
  ['陆', 0.3],
  ['汪', 0.3],
  ['范', 0.3],
  ['金', 0.3],
  ['方', 0.2],
  ['邹', 0.2],
  ['江', 0.2],
  ['顾', 0.2],
  ['钱', 0.2],
  ['欧阳', 0.05],
]

/** Given-name characters usual for men. */
export const MALE_CHARS = [
  ...'伟强磊军勇杰涛明超刚平辉鹏华飞鑫波斌宇浩凯健俊帆旭宁龙林阳晨志建国文博海东峰亮成兵洋立鸿振晓轩睿泽宏毅松嘉天家一',
]

/** Given-name characters usual for women. */
export const FEMALE_CHARS = [
  ...'芳娜敏静丽艳娟霞秀英玲婷燕丹萍红慧琳雪梅莉倩颖欣佳洁琪蕾璐悦晶岚婉妍怡思雨诗梦瑶涵彤薇晓月雅楠蓉',
]

/** A name for someone of `gender` (1 man, 2 woman): a surname and one or (mostly) two characters. */
export function chineseName(rng: Rng, gender: 1 | 2): string {
  const chars = gender === 1 ? MALE_CHARS : FEMALE_CHARS
  const given = rng.chance(0.7) ? rng.pick(chars) + rng.pick(chars) : rng.pick(chars)
  return rng.weighted(SURNAMES) + given
}
