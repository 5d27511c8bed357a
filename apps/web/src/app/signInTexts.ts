import { authEnUS } from '../features/auth/i18n/en-US'
import { authZhCN } from '../features/auth/i18n/zh-CN'
import { addTexts } from '../i18n'

// The sign-in's texts load with the shell, before anyone signs in; the console pages' texts
// arrive with the console layout (i18n/consoleTexts.ts).
addTexts({ 'zh-CN': authZhCN, 'en-US': authEnUS })
