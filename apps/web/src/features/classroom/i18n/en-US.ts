import type { classroomZhCN } from './zh-CN'

/** The first-aid classroom: en-US texts, with the keys of the zh-CN set. */
export const classroomEnUS: typeof classroomZhCN = {
  classroom: {
    list: 'First-aid classroom list',
    add: 'New',
    edit: 'Edit',
    category: 'Type',
    title: 'Title',
    titlePlaceholder: 'Please enter the title',
    cover: 'Cover image',
    coverHint: 'png, jpg or jpeg, at most 20M',
    link: 'Link',
    videoId: 'Video ID',
    videoIdPlaceholder: 'Please enter the video ID',
    describe: 'Summary',
    contentType: 'Content form',
    content: 'Body',
    contentPlaceholder: 'Please enter the body text',
    agency: 'Organisation',
    creator: 'Created by',
    createTime: 'Created',
    typeRequired: 'The type cannot be empty!',
    titleRequired: 'The title cannot be empty!',
    titleTooLong: 'The title cannot exceed 20 characters!',
    coverRequired: 'The cover image cannot be empty!',
    linkRequired: 'The link cannot be empty!',
    linkInvalid: 'The link must start with http:// or https://!',
    describeRequired: 'The content summary cannot be empty!',
    deleteTitle: 'Delete classroom item',
    deleteConfirm: 'Delete “{{title}}”?',
  },
}
