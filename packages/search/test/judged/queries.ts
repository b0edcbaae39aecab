/*
 * The judged queries (docs/search.md#how-relevance-is-judged): what people type to find one of the
 * 40 sample projects, each with the project(s) they mean. Every judgement was written from what a
 * person means by the query, before the engine's answer to it was looked at, and is never changed
 * to follow the engine: a judgement is changed only when it is wrong about what a person means.
 *
 * A project is named by its nameEn, else its name (fixtures/projects.sample.json).
 *   - `first`: the projects meant (grade 2): the query succeeds when one of them is first;
 *   - `also`: projects a person would accept lower on the page (grade 1), for nDCG@10.
 */

export type QueryKind =
  | 'exact' // the name as written
  | 'typo' // the name with one or two typos
  | 'spacing' // the name with other spacing or punctuation
  | 'prefix' // its first letters
  | 'cjk-part' // a part of a Chinese name
  | 'pinyin' // its pinyin or pinyin initials
  | 'concept' // what it is, in either language
  | 'mixed'; // Chinese and English together

export interface JudgedQuery {
  q: string;
  kind: QueryKind;
  first: string[];
  also?: string[];
}

const SD = 'Stable Diffusion';
const SDW = 'Stable Diffusion WebUI';
const DS = ['DeepSeek-V3', 'DeepSeek-R1'];

export const JUDGED: JudgedQuery[] = [
  // ————————————————————————————— exact names
  { q: 'Ollama', kind: 'exact', first: ['Ollama'] },
  { q: 'ComfyUI', kind: 'exact', first: ['ComfyUI'] },
  { q: '通义千问', kind: 'exact', first: ['Qwen'] },
  { q: 'Qwen', kind: 'exact', first: ['Qwen'] },
  { q: 'LangChain', kind: 'exact', first: ['LangChain'] },
  { q: 'LlamaIndex', kind: 'exact', first: ['LlamaIndex'] },
  { q: 'Milvus', kind: 'exact', first: ['Milvus'] },
  { q: 'Chroma', kind: 'exact', first: ['Chroma'] },
  { q: 'Dify', kind: 'exact', first: ['Dify'] },
  { q: 'RAGFlow', kind: 'exact', first: ['RAGFlow'] },
  { q: 'vLLM', kind: 'exact', first: ['vLLM'] },
  { q: 'Whisper', kind: 'exact', first: ['Whisper'] },
  { q: 'DeepSpeed', kind: 'exact', first: ['DeepSpeed'] },
  { q: 'PaddleOCR', kind: 'exact', first: ['PaddleOCR'] },
  { q: 'ChatTTS', kind: 'exact', first: ['ChatTTS'] },
  { q: 'CodeGeeX', kind: 'exact', first: ['CodeGeeX'] },
  { q: 'MiniCPM', kind: 'exact', first: ['MiniCPM'] },
  { q: 'Kimi', kind: 'exact', first: ['Kimi'] },
  { q: '文心一言', kind: 'exact', first: ['文心一言'] },
  { q: '飞桨', kind: 'exact', first: ['飞桨'], also: ['PaddleOCR'] },
  { q: '可图', kind: 'exact', first: ['可图'] },
  { q: '魔搭社区', kind: 'exact', first: ['魔搭社区'] },
  { q: '华佗GPT', kind: 'exact', first: ['华佗GPT'] },
  { q: 'Stable Diffusion', kind: 'exact', first: [SD], also: [SDW] },
  { q: 'Stable Diffusion WebUI', kind: 'exact', first: [SDW], also: [SD] },
  { q: 'llama.cpp', kind: 'exact', first: ['llama.cpp'] },
  { q: 'GPT-4o', kind: 'exact', first: ['GPT-4o'] },
  { q: 'GPT-2', kind: 'exact', first: ['GPT-2'] },
  { q: 'Llama 2', kind: 'exact', first: ['Llama 2'], also: ['LLaMA-Factory'] },
  { q: 'HunyuanVideo', kind: 'exact', first: ['HunyuanVideo'] },
  { q: 'CogVideoX', kind: 'exact', first: ['CogVideoX'] },
  { q: 'InternLM', kind: 'exact', first: ['InternLM'] },
  { q: 'Transformers', kind: 'exact', first: ['Hugging Face Transformers'] },
  { q: 'C-Eval', kind: 'exact', first: ['C-Eval'] },
  { q: 'DeepSeek-V3', kind: 'exact', first: ['DeepSeek-V3'], also: ['DeepSeek-R1'] },
  { q: 'DeepSeek-R1', kind: 'exact', first: ['DeepSeek-R1'], also: ['DeepSeek-V3'] },
  { q: 'ChatGLM', kind: 'exact', first: ['ChatGLM-6B'] },
  { q: 'Baichuan', kind: 'exact', first: ['Baichuan 2'] },
  { q: 'LLaMA Factory', kind: 'exact', first: ['LLaMA-Factory'] },
  { q: 'Chroma 向量数据库', kind: 'exact', first: ['Chroma'], also: ['Milvus'] },

  // ————————————————————————————— one or two typos
  { q: 'olama', kind: 'typo', first: ['Ollama'] },
  { q: 'ollma', kind: 'typo', first: ['Ollama'] },
  { q: 'ollamma', kind: 'typo', first: ['Ollama'] },
  { q: 'comfyiu', kind: 'typo', first: ['ComfyUI'] },
  { q: 'langchian', kind: 'typo', first: ['LangChain'] },
  { q: 'lamaindex', kind: 'typo', first: ['LlamaIndex'] },
  { q: 'milvsu', kind: 'typo', first: ['Milvus'] },
  { q: 'chromma', kind: 'typo', first: ['Chroma'] },
  { q: 'ragflw', kind: 'typo', first: ['RAGFlow'] },
  { q: 'whipser', kind: 'typo', first: ['Whisper'] },
  { q: 'deepsped', kind: 'typo', first: ['DeepSpeed'] },
  { q: 'paddleorc', kind: 'typo', first: ['PaddleOCR'] },
  { q: 'chattst', kind: 'typo', first: ['ChatTTS'] },
  { q: 'codegex', kind: 'typo', first: ['CodeGeeX'] },
  { q: 'minicmp', kind: 'typo', first: ['MiniCPM'] },
  { q: 'trasnformers', kind: 'typo', first: ['Hugging Face Transformers'] },
  { q: 'hunyuanvidoe', kind: 'typo', first: ['HunyuanVideo'] },
  { q: 'cogvidex', kind: 'typo', first: ['CogVideoX'] },
  { q: 'stable difusion', kind: 'typo', first: [SD], also: [SDW] },
  { q: 'deepseak', kind: 'typo', first: DS },
  { q: 'tongyiqainwen', kind: 'typo', first: ['Qwen'] },
  { q: 'baichaun', kind: 'typo', first: ['Baichuan 2'] },
  { q: 'internlmm', kind: 'typo', first: ['InternLM'] },
  { q: 'wisper', kind: 'typo', first: ['Whisper'] },
  { q: 'langchan', kind: 'typo', first: ['LangChain'] },

  // ————————————————————————————— other spacing or punctuation
  { q: 'llamacpp', kind: 'spacing', first: ['llama.cpp'] },
  { q: 'llama cpp', kind: 'spacing', first: ['llama.cpp'] },
  { q: 'gpt4o', kind: 'spacing', first: ['GPT-4o'] },
  { q: 'gpt 4o', kind: 'spacing', first: ['GPT-4o'] },
  { q: 'gpt-4 o', kind: 'spacing', first: ['GPT-4o'] },
  { q: 'gpt2', kind: 'spacing', first: ['GPT-2'] },
  { q: 'chat glm', kind: 'spacing', first: ['ChatGLM-6B'] },
  { q: 'chatglm6b', kind: 'spacing', first: ['ChatGLM-6B'] },
  { q: 'comfy ui', kind: 'spacing', first: ['ComfyUI'] },
  { q: 'lang chain', kind: 'spacing', first: ['LangChain'] },
  { q: 'llama index', kind: 'spacing', first: ['LlamaIndex'] },
  { q: 'rag flow', kind: 'spacing', first: ['RAGFlow'] },
  { q: 'deep speed', kind: 'spacing', first: ['DeepSpeed'] },
  { q: 'llama2', kind: 'spacing', first: ['Llama 2'] },
  { q: 'llamafactory', kind: 'spacing', first: ['LLaMA-Factory'] },
  { q: 'stablediffusion', kind: 'spacing', first: [SD], also: [SDW] },
  { q: 'ceval', kind: 'spacing', first: ['C-Eval'] },
  { q: 'deepseek v3', kind: 'spacing', first: ['DeepSeek-V3'], also: ['DeepSeek-R1'] },
  { q: 'hunyuan video', kind: 'spacing', first: ['HunyuanVideo'] },
  { q: 'paddle ocr', kind: 'spacing', first: ['PaddleOCR'] },

  // ————————————————————————————— first letters
  { q: 'comfy', kind: 'prefix', first: ['ComfyUI'] },
  { q: 'olla', kind: 'prefix', first: ['Ollama'] },
  { q: 'langch', kind: 'prefix', first: ['LangChain'] },
  { q: 'llamaind', kind: 'prefix', first: ['LlamaIndex'] },
  { q: 'milv', kind: 'prefix', first: ['Milvus'] },
  { q: 'paddle', kind: 'prefix', first: ['PaddleOCR'], also: ['飞桨'] },
  { q: 'whis', kind: 'prefix', first: ['Whisper'] },
  { q: 'deepspe', kind: 'prefix', first: ['DeepSpeed'] },
  { q: 'hunyuan', kind: 'prefix', first: ['HunyuanVideo'] },
  { q: 'cogvid', kind: 'prefix', first: ['CogVideoX'] },
  { q: 'ragf', kind: 'prefix', first: ['RAGFlow'] },
  { q: 'chattt', kind: 'prefix', first: ['ChatTTS'] },
  { q: 'internl', kind: 'prefix', first: ['InternLM'] },
  { q: 'minicp', kind: 'prefix', first: ['MiniCPM'] },
  { q: 'stable diff', kind: 'prefix', first: [SD], also: [SDW] },
  { q: 'codeg', kind: 'prefix', first: ['CodeGeeX'] },
  { q: 'transfor', kind: 'prefix', first: ['Hugging Face Transformers'] },
  { q: 'chro', kind: 'prefix', first: ['Chroma'] },

  // ————————————————————————————— a part of a Chinese name
  { q: '千问', kind: 'cjk-part', first: ['Qwen'] },
  { q: '通义', kind: 'cjk-part', first: ['Qwen'] },
  { q: '文心', kind: 'cjk-part', first: ['文心一言'] },
  { q: '一言', kind: 'cjk-part', first: ['文心一言'] },
  { q: '清言', kind: 'cjk-part', first: ['ChatGLM-6B'] },
  { q: '智谱', kind: 'cjk-part', first: ['ChatGLM-6B'], also: ['CogVideoX', 'CodeGeeX'] },
  { q: '月之暗面', kind: 'cjk-part', first: ['Kimi'] },
  { q: '深度求索', kind: 'cjk-part', first: DS },
  { q: '百川', kind: 'cjk-part', first: ['Baichuan 2'] },
  { q: '零一万物', kind: 'cjk-part', first: ['Yi'] },
  { q: '书生', kind: 'cjk-part', first: ['InternLM'] },
  { q: '浦语', kind: 'cjk-part', first: ['InternLM'] },
  { q: '魔搭', kind: 'cjk-part', first: ['魔搭社区'] },
  { q: '混元', kind: 'cjk-part', first: ['HunyuanVideo'] },
  { q: '小钢炮', kind: 'cjk-part', first: ['MiniCPM'] },
  { q: '面壁', kind: 'cjk-part', first: ['MiniCPM'] },
  { q: '华佗', kind: 'cjk-part', first: ['华佗GPT'] },
  { q: '羊驼', kind: 'cjk-part', first: ['Llama 2'] },
  { q: '稳定扩散', kind: 'cjk-part', first: [SD] },
  { q: '文字识别', kind: 'cjk-part', first: ['PaddleOCR'] },
  { q: '语音识别', kind: 'cjk-part', first: ['Whisper'] },
  { q: '语音合成', kind: 'cjk-part', first: ['ChatTTS'] },

  // ————————————————————————————— pinyin and initials
  { q: 'tongyiqianwen', kind: 'pinyin', first: ['Qwen'] },
  { q: 'tongyi', kind: 'pinyin', first: ['Qwen'] },
  { q: 'qianwen', kind: 'pinyin', first: ['Qwen'] },
  { q: 'tongyi qianwen', kind: 'pinyin', first: ['Qwen'] },
  { q: 'wenxinyiyan', kind: 'pinyin', first: ['文心一言'] },
  { q: 'wenxin', kind: 'pinyin', first: ['文心一言'] },
  { q: 'feijiang', kind: 'pinyin', first: ['飞桨'], also: ['PaddleOCR'] },
  { q: 'modashequ', kind: 'pinyin', first: ['魔搭社区'] },
  { q: 'ketu', kind: 'pinyin', first: ['可图'] },
  { q: 'huatuo', kind: 'pinyin', first: ['华佗GPT'] },
  { q: 'zhipuqingyan', kind: 'pinyin', first: ['ChatGLM-6B'] },
  { q: 'yuezhianmian', kind: 'pinyin', first: ['Kimi'] },
  { q: 'lingyiwanwu', kind: 'pinyin', first: ['Yi'] },
  { q: 'yangtuo', kind: 'pinyin', first: ['Llama 2'] },
  { q: 'tyqw', kind: 'pinyin', first: ['Qwen'] },
  { q: 'wxyy', kind: 'pinyin', first: ['文心一言'] },
  { q: 'mdsq', kind: 'pinyin', first: ['魔搭社区'] },
  { q: 'hunyuanshipin', kind: 'pinyin', first: ['HunyuanVideo'] },

  // ————————————————————————————— what it is, in either language
  { q: 'vector database', kind: 'concept', first: ['Milvus', 'Chroma'] },
  { q: '向量数据库', kind: 'concept', first: ['Milvus', 'Chroma'] },
  { q: 'inference engine', kind: 'concept', first: ['vLLM'], also: ['llama.cpp', 'Ollama'] },
  { q: '推理引擎', kind: 'concept', first: ['vLLM'], also: ['llama.cpp'] },
  { q: '文生图', kind: 'concept', first: ['可图', SD, SDW], also: ['ComfyUI'] },
  { q: '视频生成', kind: 'concept', first: ['CogVideoX', 'HunyuanVideo'], also: ['ComfyUI'] },
  { q: 'video generation', kind: 'concept', first: ['CogVideoX', 'HunyuanVideo'], also: ['ComfyUI'] },
  { q: 'image generation', kind: 'concept', first: [SD, SDW, '可图', 'ComfyUI'] },
  { q: '微调框架', kind: 'concept', first: ['LLaMA-Factory'] },
  { q: '代码生成', kind: 'concept', first: ['CodeGeeX'] },
  { q: 'code generation', kind: 'concept', first: ['CodeGeeX'] },
  { q: '评测基准', kind: 'concept', first: ['C-Eval'] },
  { q: '应用开发平台', kind: 'concept', first: ['Dify'] },
  { q: '医疗大模型', kind: 'concept', first: ['华佗GPT'] },
  { q: '向量模型', kind: 'concept', first: ['BGE Embedding (FlagEmbedding)'] },
  {
    q: '训练框架',
    kind: 'concept',
    first: ['飞桨', 'LLaMA-Factory', 'Hugging Face Transformers', 'DeepSpeed'],
  },
  { q: 'speech', kind: 'concept', first: ['Whisper', 'ChatTTS'] },
  { q: '检索增强', kind: 'concept', first: ['RAGFlow'], also: ['LlamaIndex', 'LangChain', 'Dify'] },

  // ————————————————————————————— Chinese and English together
  { q: 'qwen 大模型', kind: 'mixed', first: ['Qwen'] },
  { q: 'kimi 长文本', kind: 'mixed', first: ['Kimi'] },
  { q: '百度 ocr', kind: 'mixed', first: ['PaddleOCR'] },
  { q: '阿里 qwen', kind: 'mixed', first: ['Qwen'] },
  { q: 'deepseek 推理', kind: 'mixed', first: ['DeepSeek-R1'], also: ['DeepSeek-V3'] },
  { q: 'chatglm 6b', kind: 'mixed', first: ['ChatGLM-6B'] },
  { q: '腾讯 视频', kind: 'mixed', first: ['HunyuanVideo'] },
  { q: '百度 飞桨', kind: 'mixed', first: ['飞桨'], also: ['PaddleOCR'] },
  { q: 'openai 语音', kind: 'mixed', first: ['Whisper'] },
  { q: 'openai whisper', kind: 'mixed', first: ['Whisper'] },
  { q: 'meta llama', kind: 'mixed', first: ['Llama 2'] },
  { q: '微软 deepspeed', kind: 'mixed', first: ['DeepSpeed'] },
  { q: 'stable diffusion 界面', kind: 'mixed', first: [SDW], also: [SD] },
  { q: '向量 database', kind: 'mixed', first: ['Milvus', 'Chroma'] },
  { q: 'llama 微调', kind: 'mixed', first: ['LLaMA-Factory'] },
  { q: 'sd webui', kind: 'mixed', first: [SDW] },
  { q: 'gpt4o 多模态', kind: 'mixed', first: ['GPT-4o'] },
  { q: 'langchain 框架', kind: 'mixed', first: ['LangChain'] },
  { q: 'milvus 向量', kind: 'mixed', first: ['Milvus'] },
  { q: 'ollama 本地', kind: 'mixed', first: ['Ollama'] },
];
