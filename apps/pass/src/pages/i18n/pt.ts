import { minutesHours, PassMessages } from './pass-messages';

/** The Portuguese catalog of pass's pages: every key of PassMessages. */
export const pt: PassMessages = {
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
