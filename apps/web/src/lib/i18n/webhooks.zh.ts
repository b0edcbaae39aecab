import type { webhooksEn } from './webhooks.en.ts';

export const webhooksZh: typeof webhooksEn = {
  copySecret: '复制密钥',
  copiedNote: '已复制到剪贴板。',
  copyFallback: '此处无法使用剪贴板：密钥已选中，请按 Ctrl+C（Mac 上按 ⌘C）复制。',
  pingBadge: '测试消息',
  showDelivery: (id) => `详情 ${id}`,
  deliveryTitle: (id) => `投递 ${id}`,
  closeDrawer: '关闭',
  deliveryRequest: '请求',
  deliveryResponse: '响应',
  requestNotKept: '未保存：这次尝试记录于开始保存请求之前。',
  statusCode: '状态码',
  noAnswer: '没有响应',
  duration: '耗时',
  durationMs: (ms) => `${ms} 毫秒`,
  deliveryError: '错误',
  headers: '头部',
  headerName: '名称',
  headerValue: '值',
  noHeaders: '未收到。',
  body: '正文',
  bodyJson: '正文（JSON，已缩进显示）',
  bodyEmpty: '空。',
  bodyNone: '未收到。',
  bodyTruncated: '只保存了响应的前 4 KB。',
  editWebhook: '编辑…',
  editWebhookTitle: (url) => `编辑 ${url}`,
  saveWebhook: '保存',
  webhookSaved: '已保存。',
  rotateSecret: '轮换密钥…',
  rotateTitle: '轮换签名密钥',
  rotateHelp:
    '网络钩子会得到一个新密钥，只显示一次。宽限期内每次投递同时用新旧两个密钥签名，方便接收端改用新密钥。',
  graceLegend: '旧密钥继续签名的时间',
  grace: (seconds) =>
    seconds === 0
      ? '不保留：立即停止'
      : seconds === 3_600
        ? '1 小时'
        : seconds === 86_400
          ? '24 小时'
          : seconds === 604_800
            ? '7 天'
            : `${seconds} 秒`,
  rotateSecretYes: '轮换密钥',
  rotatedOnce: '新的签名密钥只显示这一次：请复制到接收端。',
  oldSecretUntil: '旧密钥同时签名，直到',
  oldSecretStopped: '旧密钥已不再签名。',
  done: '完成',
};
