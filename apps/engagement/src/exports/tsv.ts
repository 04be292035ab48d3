import { ExportLanguage } from './chat-export.entity';

/** Column titles of a chat export, per language (the columns are the same in every language). */
export const TSV_HEADERS: Record<ExportLanguage, string[]> = {
  en: [
    'chat_id',
    'line',
    'contact_phone',
    'contact_name',
    'owner',
    'chat_status',
    'date',
    'actor_type',
    'actor',
    'activity_type',
    'text',
    'delivery_status',
  ],
  es: [
    'id_chat',
    'linea',
    'telefono_contacto',
    'nombre_contacto',
    'agente',
    'estado_chat',
    'fecha',
    'tipo_actor',
    'actor',
    'tipo_actividad',
    'texto',
    'estado_entrega',
  ],
  pt: [
    'id_chat',
    'linha',
    'telefone_contato',
    'nome_contato',
    'agente',
    'status_chat',
    'data',
    'tipo_ator',
    'ator',
    'tipo_atividade',
    'texto',
    'status_entrega',
  ],
};

/** Values the export translates (actor types, activity types, statuses). */
const WORDS: Record<ExportLanguage, Record<string, string>> = {
  en: {},
  es: {
    user: 'usuario',
    agent: 'agente',
    system: 'sistema',
    bot: 'bot',
    message: 'mensaje',
    note: 'nota',
    open: 'abierto',
    closed: 'cerrado',
    accepted: 'aceptado',
    sent: 'enviado',
    delivered: 'entregado',
    read: 'leido',
    failed: 'fallido',
  },
  pt: {
    user: 'usuario',
    agent: 'agente',
    system: 'sistema',
    bot: 'bot',
    message: 'mensagem',
    note: 'nota',
    open: 'aberto',
    closed: 'fechado',
    accepted: 'aceito',
    sent: 'enviado',
    delivered: 'entregue',
    read: 'lido',
    failed: 'falhou',
  },
};

export const translate = (language: ExportLanguage, value: string | null): string =>
  value === null ? '' : (WORDS[language][value] ?? value);
