import { minutesHours, PassMessages } from './pass-messages';

/** The Spanish catalog of pass's pages (the default): every key of PassMessages. */
export const es: PassMessages = {
  brand: 'Pass',
  theApplication: 'la aplicación',
  wait: (s) => {
    const w = minutesHours(s);
    return 'minutes' in w ? `${w.minutes} ${w.minutes === 1 ? 'minuto' : 'minutos'}` : `${w.hours} horas`;
  },
  technicalDetails: 'Detalles técnicos',
  backTo: (app) => `Volver a ${app}`,
  approvalSms: (r, said, link) =>
    `${r ? `${r.app} (de ${r.tenant})` : 'Una aplicación'} te pide aprobar una solicitud.` +
    `${said ? ` Su mensaje: "${said}".` : ''} Revísala: ${link}`,
  mail: {
    subject: (code) => `Tu código para iniciar sesión: ${code}`,
    text: (app, code) =>
      `Tu código para iniciar sesión en ${app} es ${code}.\nVence en 10 minutos. Si no lo pediste, ignora este correo.\n`,
  },
  signIn: {
    title: 'Inicia sesión',
    heading: (app) => `Inicia sesión en ${app}`,
    intro: 'Te enviaremos un código de 6 dígitos a tu correo. No necesitas contraseña.',
    email: 'Correo electrónico',
    send: 'Enviarme un código',
    cancel: 'Cancelar',
  },
  code: {
    title: 'Ingresa tu código',
    heading: 'Revisa tu correo',
    intro: (email) => `Enviamos un código de 6 dígitos a ${email}. Vence en 10 minutos.`,
    label: 'Código',
    hint: 'Los 6 dígitos del correo.',
    verify: 'Iniciar sesión',
    resend: 'Enviar otro código',
    otherEmail: 'Usar otro correo',
  },
  notices: {
    sessionTooOld: (app) => `Tu sesión es demasiado antigua para ${app}: inicia sesión de nuevo.`,
    emailDomainNotAllowed: (app, domains) => `${app} solo acepta correos de: ${domains}. Usa otro correo.`,
    invalidEmail: 'Escribe un correo electrónico válido, como nombre@ejemplo.com.',
    codeFormat: 'Escribe los 6 dígitos del código, sin espacios.',
    tooManyCodes: (wait) => `Se pidieron demasiados códigos. Intenta de nuevo en ${wait}.`,
    codeSent: 'Te enviamos un código nuevo. Usa el más reciente.',
    invalidCode: (n) =>
      n === 1
        ? 'Ese código no es correcto. Te queda 1 intento.'
        : `Ese código no es correcto. Te quedan ${n} intentos.`,
    codeAttemptsUsed: 'Ese código se intentó demasiadas veces. Pide uno nuevo.',
    codeExpired: 'El código venció o ya se usó. Pide uno nuevo.',
  },
  lockout: {
    title: 'Demasiados intentos',
    heading: 'Demasiados intentos',
    text: (wait) => `Por tu seguridad, bloqueamos el inicio de sesión con este correo. Intenta de nuevo en ${wait}.`,
    after: 'Mientras tanto no enviaremos códigos a este correo.',
  },
  consent: {
    title: 'Compartir tus datos',
    heading: (app) => `${app} quiere acceder a tus datos`,
    owner: (app, tenant) => `${app} es una aplicación de ${tenant}.`,
    intro: (app) => `Si lo permites, ${app} recibirá:`,
    allow: 'Permitir',
    deny: 'No permitir',
    note: 'Puedes dejar de compartir cuando quieras.',
  },
  stepUp: {
    title: 'Se necesita más verificación',
    heading: 'Se necesita más verificación',
    acrNotSatisfied: (app) =>
      `${app} necesita una identidad verificada. Verifica tu identidad una vez y vuelve a iniciar sesión.`,
  },
  expired: {
    title: 'El inicio de sesión expiró',
    heading: 'Este inicio de sesión expiró',
    text: (app) => `Vuelve a ${app} y comienza de nuevo.`,
    textUnknown: 'Vuelve a la aplicación y comienza de nuevo.',
  },
  authorizeError: {
    title: 'No pudimos iniciar la sesión',
    heading: 'No pudimos iniciar la sesión',
    text: 'El enlace que te trajo aquí no es válido. Vuelve a la aplicación e inténtalo de nuevo; si se repite, avísale a quien la ofrece.',
  },
  genericError: {
    title: 'Algo salió mal',
    heading: 'Algo salió mal',
    text: 'No pudimos completar este paso. Vuelve a la aplicación e inténtalo de nuevo.',
  },
  approval: {
    title: 'Aprobar la solicitud',
    heading: 'Revisa la solicitud',
    requester: (app, tenant) => `${app}, de ${tenant}, te pide aprobar esta solicitud.`,
    unknownRequester: 'Una aplicación que ya no existe te pide aprobar esta solicitud.',
    theirMessage: 'Su mensaje',
    shares: 'Si apruebas, la aplicación recibirá:',
    details: 'Lo que apruebas',
    attachments: 'Documentos adjuntos',
    requested: 'Información que te piden',
    required: 'obligatorio',
    choose: 'Elige una opción',
    yes: 'Sí',
    no: 'No',
    formErrors: 'Revisa las respuestas marcadas.',
    approve: 'Aprobar',
    decline: 'Rechazar',
    approved: {
      title: 'Solicitud aprobada',
      heading: 'Aprobaste la solicitud',
      text: (app) => `Le avisamos a ${app}. Ya puedes cerrar esta página.`,
    },
    declined: {
      title: 'Solicitud rechazada',
      heading: 'Rechazaste la solicitud',
      text: (app) => `Le avisamos a ${app}. Ya puedes cerrar esta página.`,
    },
    decided: {
      title: 'Solicitud ya respondida',
      heading: 'Ya respondiste esta solicitud',
      approved: 'La aprobaste.',
      declined: 'La rechazaste.',
      text: 'No hay nada más que hacer: puedes cerrar esta página.',
    },
    expired: {
      title: 'Solicitud vencida',
      heading: 'Esta solicitud ya no está disponible',
      text: 'Venció o ya fue respondida. Si todavía la necesitas, pide a la aplicación que la envíe de nuevo.',
    },
    badLink: {
      title: 'Enlace no válido',
      heading: 'Este enlace no es válido',
      text: 'Abre el enlace completo del mensaje que recibiste. Si lo copiaste, revisa que no le falte nada.',
    },
    fieldErrors: {
      once: (l) => `${l}: responde una sola vez.`,
      checkbox: (l) => `${l}: marca la casilla o déjala sin marcar.`,
      must_check: (l) => `${l}: debes marcar esta casilla.`,
      required: (l) => `${l}: este dato es obligatorio.`,
      control: (l) => `${l}: tiene caracteres no permitidos.`,
      number: (l) => `${l}: escribe un número, como 1500.50.`,
      date: (l) => `${l}: escribe una fecha real (AAAA-MM-DD).`,
      email: (l) => `${l}: escribe un correo válido.`,
      option: (l) => `${l}: elige una de las opciones.`,
      too_long: (l, max) => `${l}: escribe como máximo ${max} caracteres.`,
    },
  },
  scopes: {
    openid: 'un identificador que no cambia',
    email: 'tu correo, verificado',
    phone: 'tu teléfono, verificado',
    profile: 'tu nombre, nombres y apellidos, género, fecha de nacimiento y nacionalidad',
    identity:
      'tu identidad verificada: nombres, fecha de nacimiento, nacionalidad, número y tipo de documento, autoridad que lo expidió y alertas de riesgo',
    documents: 'tus documentos de identidad',
    'documents:images': 'las imágenes de tus documentos',
    age: 'si tu edad está verificada, si eres menor de edad y tu rango de edad',
    address: 'tu dirección',
    background: 'tu nivel de confianza y tus verificaciones de antecedentes',
    biometric: 'tu registro facial y los resultados de prueba de vida',
    'biometric:image': 'la imagen de tu rostro',
    verification: 'el estado, la fecha y los métodos de tu verificación',
    contact: 'tu correo y teléfono verificados y cómo prefieres que te contacten',
    nationality: 'tu nacionalidad',
    'approval:read': 'las decisiones que tomes sobre sus solicitudes de aprobación',
    'validations:write': 'registrar validaciones que hizo sobre ti',
  },
  documentScope: (country, type) =>
    `tus documentos (${country === 'ALL' ? 'de cualquier país' : country.toUpperCase()}, ${type === 'ALL' ? 'de cualquier tipo' : type})`,
};
