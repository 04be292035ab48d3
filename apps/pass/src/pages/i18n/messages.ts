import { PageLanguage } from '@kyc/platform';

/** Why an approval form answer is refused (PassMessages.approval.fieldErrors says it). */
export type FieldErrorCode =
  'once' | 'checkbox' | 'must_check' | 'required' | 'control' | 'number' | 'date' | 'email' | 'option' | 'too_long';

/**
 * Every string of pass's pages (sign-in, code, consent, step-up, approval, and the pages of the states a
 * person can reach: expired sign-in, lockout, decided approval, bad link), one catalog per language.
 */
export interface PassMessages {
  brand: string;
  /** "the application", when its name is not known. */
  theApplication: string;
  /** A wait told to a person: "15 minutos", "2 horas". */
  wait: (seconds: number) => string;
  technicalDetails: string;
  backTo: (app: string) => string;
  /** The e-mail with the sign-in code (the code is in the subject too). */
  mail: { subject: (code: string) => string; text: (app: string, code: string) => string };
  /** The CIBA approval text message: who asks (application and tenant), what the client wrote, the link. */
  approvalSms: (
    requester: { app: string; tenant: string } | undefined,
    said: string | undefined,
    link: string,
  ) => string;
  signIn: {
    title: string;
    heading: (app: string) => string;
    intro: string;
    email: string;
    send: string;
    cancel: string;
  };
  code: {
    title: string;
    heading: string;
    intro: (email: string) => string;
    label: string;
    hint: string;
    verify: string;
    resend: string;
    otherEmail: string;
  };
  notices: {
    sessionTooOld: (app: string) => string;
    emailDomainNotAllowed: (app: string, domains: string) => string;
    invalidEmail: string;
    codeFormat: string;
    tooManyCodes: (wait: string) => string;
    codeSent: string;
    invalidCode: (attemptsLeft: number) => string;
    codeAttemptsUsed: string;
    codeExpired: string;
  };
  lockout: { title: string; heading: string; text: (wait: string) => string; after: string };
  consent: {
    title: string;
    heading: (app: string) => string;
    owner: (app: string, tenant: string) => string;
    intro: (app: string) => string;
    allow: string;
    deny: string;
    note: string;
  };
  stepUp: { title: string; heading: string; acrNotSatisfied: (app: string) => string };
  expired: { title: string; heading: string; text: (app: string) => string; textUnknown: string };
  authorizeError: { title: string; heading: string; text: string };
  genericError: { title: string; heading: string; text: string };
  approval: {
    title: string;
    heading: string;
    requester: (app: string, tenant: string) => string;
    unknownRequester: string;
    theirMessage: string;
    shares: string;
    details: string;
    attachments: string;
    requested: string;
    required: string;
    choose: string;
    yes: string;
    no: string;
    formErrors: string;
    approve: string;
    decline: string;
    approved: { title: string; heading: string; text: (app: string) => string };
    declined: { title: string; heading: string; text: (app: string) => string };
    decided: { title: string; heading: string; approved: string; declined: string; text: string };
    expired: { title: string; heading: string; text: string };
    badLink: { title: string; heading: string; text: string };
    fieldErrors: Record<FieldErrorCode, (label: string, max?: number) => string>;
  };
  scopes: Record<string, string>;
  documentScope: (country: string, type: string) => string;
}

const minutesHours = (seconds: number) => {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return minutes < 120 ? { minutes } : { hours: Math.ceil(minutes / 60) };
};

const es: PassMessages = {
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

const en: PassMessages = {
  brand: 'Pass',
  theApplication: 'the application',
  wait: (s) => {
    const w = minutesHours(s);
    return 'minutes' in w ? `${w.minutes} ${w.minutes === 1 ? 'minute' : 'minutes'}` : `${w.hours} hours`;
  },
  technicalDetails: 'Technical details',
  backTo: (app) => `Back to ${app}`,
  approvalSms: (r, said, link) =>
    `${r ? `${r.app} (tenant ${r.tenant})` : 'An application'} asks you to approve a request.` +
    `${said ? ` Their message: "${said}".` : ''} Review it: ${link}`,
  mail: {
    subject: (code) => `Your sign-in code: ${code}`,
    text: (app, code) =>
      `Your code to sign in to ${app} is ${code}.\nIt is valid for 10 minutes. If you did not ask for it, ignore this e-mail.\n`,
  },
  signIn: {
    title: 'Sign in',
    heading: (app) => `Sign in to ${app}`,
    intro: 'We will e-mail you a 6-digit code. No password needed.',
    email: 'E-mail',
    send: 'Send me a code',
    cancel: 'Cancel',
  },
  code: {
    title: 'Enter your code',
    heading: 'Check your e-mail',
    intro: (email) => `We sent a 6-digit code to ${email}. It expires in 10 minutes.`,
    label: 'Code',
    hint: 'The 6 digits of the e-mail.',
    verify: 'Sign in',
    resend: 'Send another code',
    otherEmail: 'Use another e-mail',
  },
  notices: {
    sessionTooOld: (app) => `Your session is too old for ${app}: sign in again.`,
    emailDomainNotAllowed: (app, domains) => `${app} accepts only e-mail addresses of: ${domains}. Use another e-mail.`,
    invalidEmail: 'Type a valid e-mail address, like name@example.com.',
    codeFormat: 'Type the 6 digits of the code, without spaces.',
    tooManyCodes: (wait) => `Too many codes were asked for. Try again in ${wait}.`,
    codeSent: 'We sent you a new code. Use the latest one.',
    invalidCode: (n) =>
      n === 1
        ? 'That code is not right. You have 1 attempt left.'
        : `That code is not right. You have ${n} attempts left.`,
    codeAttemptsUsed: 'That code was tried too many times. Ask for a new one.',
    codeExpired: 'The code expired or was already used. Ask for a new one.',
  },
  lockout: {
    title: 'Too many attempts',
    heading: 'Too many attempts',
    text: (wait) => `To keep your account safe, sign-in with this e-mail is locked. Try again in ${wait}.`,
    after: 'No codes are sent to this e-mail meanwhile.',
  },
  consent: {
    title: 'Share your data',
    heading: (app) => `${app} wants to access your data`,
    owner: (app, tenant) => `${app} is an application of ${tenant}.`,
    intro: (app) => `If you allow it, ${app} will receive:`,
    allow: 'Allow',
    deny: 'Deny',
    note: 'You can stop sharing whenever you want.',
  },
  stepUp: {
    title: 'More verification needed',
    heading: 'More verification needed',
    acrNotSatisfied: (app) => `${app} needs a verified identity. Verify your identity once, then sign in again.`,
  },
  expired: {
    title: 'This sign-in expired',
    heading: 'This sign-in expired',
    text: (app) => `Go back to ${app} and start again.`,
    textUnknown: 'Go back to the application and start again.',
  },
  authorizeError: {
    title: 'We could not start the sign-in',
    heading: 'We could not start the sign-in',
    text: 'The link that brought you here is not valid. Go back to the application and try again; if it happens again, tell whoever runs it.',
  },
  genericError: {
    title: 'Something went wrong',
    heading: 'Something went wrong',
    text: 'We could not finish this step. Go back to the application and try again.',
  },
  approval: {
    title: 'Approve the request',
    heading: 'Review the request',
    requester: (app, tenant) => `${app}, of ${tenant}, asks you to approve this request.`,
    unknownRequester: 'An application that no longer exists asks you to approve this request.',
    theirMessage: 'Their message',
    shares: 'If you approve, the application will receive:',
    details: 'What you approve',
    attachments: 'Attached documents',
    requested: 'Information they ask for',
    required: 'required',
    choose: 'Choose an option',
    yes: 'Yes',
    no: 'No',
    formErrors: 'Check the answers marked below.',
    approve: 'Approve',
    decline: 'Decline',
    approved: {
      title: 'Request approved',
      heading: 'You approved the request',
      text: (app) => `We told ${app}. You can close this page.`,
    },
    declined: {
      title: 'Request declined',
      heading: 'You declined the request',
      text: (app) => `We told ${app}. You can close this page.`,
    },
    decided: {
      title: 'Request already answered',
      heading: 'You already answered this request',
      approved: 'You approved it.',
      declined: 'You declined it.',
      text: 'There is nothing more to do: you can close this page.',
    },
    expired: {
      title: 'Request no longer available',
      heading: 'This request is no longer available',
      text: 'It expired or was already answered. If you still need it, ask the application to send it again.',
    },
    badLink: {
      title: 'Link not valid',
      heading: 'This link is not valid',
      text: 'Open the whole link of the message you received. If you copied it, check that nothing is missing.',
    },
    fieldErrors: {
      once: (l) => `${l}: answer only once.`,
      checkbox: (l) => `${l}: check the box or leave it unchecked.`,
      must_check: (l) => `${l}: you must check this box.`,
      required: (l) => `${l}: this is required.`,
      control: (l) => `${l}: it has characters that are not allowed.`,
      number: (l) => `${l}: type a number, like 1500.50.`,
      date: (l) => `${l}: type a real date (YYYY-MM-DD).`,
      email: (l) => `${l}: type a valid e-mail address.`,
      option: (l) => `${l}: choose one of the options.`,
      too_long: (l, max) => `${l}: type at most ${max} characters.`,
    },
  },
  scopes: {
    openid: 'an identifier that does not change',
    email: 'your e-mail, verified',
    phone: 'your phone number, verified',
    profile: 'your name, first and last names, gender, birthdate and nationality',
    identity:
      'your verified identity: names, birthdate, nationality, document number and type, issuing authority and risk flags',
    documents: 'your identity documents',
    'documents:images': 'the images of your documents',
    age: 'whether your age is verified, whether you are a minor, and your age range',
    address: 'your address',
    background: 'your trust level and background checks',
    biometric: 'your face enrollment and liveness results',
    'biometric:image': 'the image of your face',
    verification: 'the status, date and methods of your verification',
    contact: 'your verified e-mail and phone and how you prefer to be contacted',
    nationality: 'your nationality',
    'approval:read': 'the decisions you make on its approval requests',
    'validations:write': 'to record validations it made about you',
  },
  documentScope: (country, type) =>
    `your documents (${country === 'ALL' ? 'of any country' : country.toUpperCase()}, ${type === 'ALL' ? 'of any type' : type})`,
};

const pt: PassMessages = {
  brand: 'Pass',
  theApplication: 'o aplicativo',
  wait: (s) => {
    const w = minutesHours(s);
    return 'minutes' in w ? `${w.minutes} ${w.minutes === 1 ? 'minuto' : 'minutos'}` : `${w.hours} horas`;
  },
  technicalDetails: 'Detalhes técnicos',
  backTo: (app) => `Voltar para ${app}`,
  approvalSms: (r, said, link) =>
    `${r ? `${r.app} (de ${r.tenant})` : 'Um aplicativo'} pede que você aprove uma solicitação.` +
    `${said ? ` A mensagem: "${said}".` : ''} Revise: ${link}`,
  mail: {
    subject: (code) => `Seu código para entrar: ${code}`,
    text: (app, code) =>
      `Seu código para entrar em ${app} é ${code}.\nEle vence em 10 minutos. Se você não pediu, ignore este e-mail.\n`,
  },
  signIn: {
    title: 'Entrar',
    heading: (app) => `Entre em ${app}`,
    intro: 'Enviaremos um código de 6 dígitos para o seu e-mail. Não precisa de senha.',
    email: 'E-mail',
    send: 'Enviar um código',
    cancel: 'Cancelar',
  },
  code: {
    title: 'Digite o código',
    heading: 'Confira seu e-mail',
    intro: (email) => `Enviamos um código de 6 dígitos para ${email}. Ele vence em 10 minutos.`,
    label: 'Código',
    hint: 'Os 6 dígitos do e-mail.',
    verify: 'Entrar',
    resend: 'Enviar outro código',
    otherEmail: 'Usar outro e-mail',
  },
  notices: {
    sessionTooOld: (app) => `Sua sessão é antiga demais para ${app}: entre novamente.`,
    emailDomainNotAllowed: (app, domains) => `${app} aceita apenas e-mails de: ${domains}. Use outro e-mail.`,
    invalidEmail: 'Digite um e-mail válido, como nome@exemplo.com.',
    codeFormat: 'Digite os 6 dígitos do código, sem espaços.',
    tooManyCodes: (wait) => `Foram pedidos códigos demais. Tente novamente em ${wait}.`,
    codeSent: 'Enviamos um código novo. Use o mais recente.',
    invalidCode: (n) =>
      n === 1
        ? 'Esse código não está certo. Resta 1 tentativa.'
        : `Esse código não está certo. Restam ${n} tentativas.`,
    codeAttemptsUsed: 'Esse código foi tentado vezes demais. Peça um novo.',
    codeExpired: 'O código venceu ou já foi usado. Peça um novo.',
  },
  lockout: {
    title: 'Tentativas demais',
    heading: 'Tentativas demais',
    text: (wait) => `Para a sua segurança, bloqueamos a entrada com este e-mail. Tente novamente em ${wait}.`,
    after: 'Enquanto isso, não enviaremos códigos para este e-mail.',
  },
  consent: {
    title: 'Compartilhar seus dados',
    heading: (app) => `${app} quer acessar seus dados`,
    owner: (app, tenant) => `${app} é um aplicativo de ${tenant}.`,
    intro: (app) => `Se você permitir, ${app} vai receber:`,
    allow: 'Permitir',
    deny: 'Não permitir',
    note: 'Você pode deixar de compartilhar quando quiser.',
  },
  stepUp: {
    title: 'É preciso mais verificação',
    heading: 'É preciso mais verificação',
    acrNotSatisfied: (app) =>
      `${app} precisa de uma identidade verificada. Verifique sua identidade uma vez e entre novamente.`,
  },
  expired: {
    title: 'A entrada expirou',
    heading: 'Esta entrada expirou',
    text: (app) => `Volte para ${app} e comece de novo.`,
    textUnknown: 'Volte para o aplicativo e comece de novo.',
  },
  authorizeError: {
    title: 'Não foi possível iniciar a entrada',
    heading: 'Não foi possível iniciar a entrada',
    text: 'O link que trouxe você até aqui não é válido. Volte para o aplicativo e tente de novo; se acontecer de novo, avise quem o oferece.',
  },
  genericError: {
    title: 'Algo deu errado',
    heading: 'Algo deu errado',
    text: 'Não conseguimos concluir este passo. Volte para o aplicativo e tente de novo.',
  },
  approval: {
    title: 'Aprovar a solicitação',
    heading: 'Revise a solicitação',
    requester: (app, tenant) => `${app}, de ${tenant}, pede que você aprove esta solicitação.`,
    unknownRequester: 'Um aplicativo que não existe mais pede que você aprove esta solicitação.',
    theirMessage: 'A mensagem deles',
    shares: 'Se você aprovar, o aplicativo vai receber:',
    details: 'O que você aprova',
    attachments: 'Documentos anexos',
    requested: 'Informações pedidas',
    required: 'obrigatório',
    choose: 'Escolha uma opção',
    yes: 'Sim',
    no: 'Não',
    formErrors: 'Revise as respostas marcadas.',
    approve: 'Aprovar',
    decline: 'Recusar',
    approved: {
      title: 'Solicitação aprovada',
      heading: 'Você aprovou a solicitação',
      text: (app) => `Avisamos ${app}. Você já pode fechar esta página.`,
    },
    declined: {
      title: 'Solicitação recusada',
      heading: 'Você recusou a solicitação',
      text: (app) => `Avisamos ${app}. Você já pode fechar esta página.`,
    },
    decided: {
      title: 'Solicitação já respondida',
      heading: 'Você já respondeu esta solicitação',
      approved: 'Você a aprovou.',
      declined: 'Você a recusou.',
      text: 'Não há mais nada a fazer: você pode fechar esta página.',
    },
    expired: {
      title: 'Solicitação indisponível',
      heading: 'Esta solicitação não está mais disponível',
      text: 'Ela venceu ou já foi respondida. Se ainda precisar, peça ao aplicativo que a envie de novo.',
    },
    badLink: {
      title: 'Link inválido',
      heading: 'Este link não é válido',
      text: 'Abra o link completo da mensagem que você recebeu. Se o copiou, confira se não falta nada.',
    },
    fieldErrors: {
      once: (l) => `${l}: responda uma vez só.`,
      checkbox: (l) => `${l}: marque a caixa ou deixe-a desmarcada.`,
      must_check: (l) => `${l}: você precisa marcar esta caixa.`,
      required: (l) => `${l}: este dado é obrigatório.`,
      control: (l) => `${l}: tem caracteres não permitidos.`,
      number: (l) => `${l}: digite um número, como 1500.50.`,
      date: (l) => `${l}: digite uma data real (AAAA-MM-DD).`,
      email: (l) => `${l}: digite um e-mail válido.`,
      option: (l) => `${l}: escolha uma das opções.`,
      too_long: (l, max) => `${l}: digite no máximo ${max} caracteres.`,
    },
  },
  scopes: {
    openid: 'um identificador que não muda',
    email: 'seu e-mail, verificado',
    phone: 'seu telefone, verificado',
    profile: 'seu nome, nomes e sobrenomes, gênero, data de nascimento e nacionalidade',
    identity:
      'sua identidade verificada: nomes, data de nascimento, nacionalidade, número e tipo de documento, órgão emissor e alertas de risco',
    documents: 'seus documentos de identidade',
    'documents:images': 'as imagens dos seus documentos',
    age: 'se sua idade está verificada, se você é menor de idade e sua faixa etária',
    address: 'seu endereço',
    background: 'seu nível de confiança e suas verificações de antecedentes',
    biometric: 'seu cadastro facial e os resultados da prova de vida',
    'biometric:image': 'a imagem do seu rosto',
    verification: 'o estado, a data e os métodos da sua verificação',
    contact: 'seu e-mail e telefone verificados e como você prefere ser contatado',
    nationality: 'sua nacionalidade',
    'approval:read': 'as decisões que você tomar sobre as solicitações de aprovação dele',
    'validations:write': 'registrar validações que fez sobre você',
  },
  documentScope: (country, type) =>
    `seus documentos (${country === 'ALL' ? 'de qualquer país' : country.toUpperCase()}, ${type === 'ALL' ? 'de qualquer tipo' : type})`,
};

export const PASS_MESSAGES: Record<PageLanguage, PassMessages> = { es, en, pt };

/** A requested scope in the person's words (a scope without words is shown as it is). */
export function describeScope(m: PassMessages, scope: string): string {
  const known = m.scopes[scope];
  if (known) return known;
  const doc = /^document:([a-zA-Z]{2}|ALL):(.+)$/.exec(scope);
  return doc ? m.documentScope(doc[1], doc[2]) : scope;
}
