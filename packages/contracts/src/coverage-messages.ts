/** The coverage page's messages and its spreadsheet's words (zh-CN, en-US), spread into the message table. */
export const coverageMessages = {
  COVERAGE_RANGE_TOO_LONG: ['统计时间范围不能超过{days}天', 'The period cannot be longer than {days} days'],
  COVERAGE_FILE: ['覆盖分析_{start}_{end}.xlsx', 'Coverage_{start}_{end}.xlsx'],
  COVERAGE_SHEET: ['覆盖分析', 'Coverage'],
  COVERAGE_COL_ID: ['编号', 'No.'],
  COVERAGE_COL_CALL_TIME: ['呼救时间', 'Call time'],
  COVERAGE_COL_LOCATION: ['呼救地址', 'Address'],
  COVERAGE_COL_REGION: ['所属区域', 'Region'],
  COVERAGE_COL_AGENCY: ['所属机构', 'Organisation'],
  COVERAGE_COL_READY_AEDS: ['500米内就绪AED', 'Ready AEDs within 500 m'],
  COVERAGE_COL_COVER: ['AED覆盖', 'AED cover'],
  COVERAGE_COL_FIRST_ACCEPT: ['首位接受用时（秒）', 'First accept after (s)'],
  COVERAGE_COL_FIRST_ARRIVAL: ['首位到达用时（秒）', 'First arrival after (s)'],
  COVERAGE_COL_OUTCOME: ['处置结果', 'Outcome'],
  COVERAGE_COVERED: ['已覆盖', 'Covered'],
  COVERAGE_UNCOVERED: ['未覆盖', 'Not covered'],
  COVERAGE_UNKNOWN: ['未知', 'Unknown'],
} as const satisfies Record<string, readonly [string, string]>
