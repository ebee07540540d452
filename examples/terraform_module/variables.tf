variable "project" {
  type        = string
  description = "Name prefix of every resource."
  default     = "acme"
}

variable "environment" {
  type    = string
  default = "prod"
}

variable "instances" {
  description = "Instances to run, by name."
  type = map(object({
    size  = optional(string, "t3.micro")
    count = optional(number, 1)
    disk = optional(object({
      gb   = optional(number, 20)
      type = optional(string, "gp3")
    }), {})
  }))
  default = {
    web = { count = "2" }
    db  = { size = "r6g.large", disk = { gb = 500 } }
  }
}

variable "allowed_ports" {
  type    = set(number)
  default = [443, 80, "443"]
}
